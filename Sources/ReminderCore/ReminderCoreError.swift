import ReminderJSON

/// Everything `ReminderCore` refuses. Every refusal names a field of the item or config being
/// read, so it is the JSON reader's `FieldError`, under the name the rest of the tree knows.
public typealias ReminderCoreError = FieldError

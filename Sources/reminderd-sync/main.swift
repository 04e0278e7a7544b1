import ReminderdSyncCommand

// `swift build`'s reminderd-sync, for development and the end-to-end tests. The package ships no
// such file: its reminderd-sync is a link to reminderd, which runs this same command when started
// under that name (Sources/reminderd/main.swift).
ReminderdSync.main()

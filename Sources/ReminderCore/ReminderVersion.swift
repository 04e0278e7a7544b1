/// The one version of reminderd: what `reminderd --version`, `reminderctl --version`, `status` and
/// the varlink service info report, and what `scripts/package-deb.sh` names the Debian package
/// after (it reads the string below, so keep it a plain literal on one line).
public enum ReminderVersion {
    public static let current = "0.3.0"
}

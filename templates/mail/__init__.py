"""gm's own mail templates (plain text); a GM overrides one by putting a file of the same name in
$GM_HOME/templates/mail/."""

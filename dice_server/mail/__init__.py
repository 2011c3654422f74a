"""Mail: composing each outbox message and delivering it (into a maildir, or to an SMTP
relay)."""

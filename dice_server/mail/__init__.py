"""Mail channels: composing and delivering the outbox (later, reading turns by SMTP)."""

"""Outgoing mail: the outbox, building messages, the senders (SMTP, a folder, memory), mail templates."""

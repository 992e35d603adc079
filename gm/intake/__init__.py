"""Incoming mail: sources of raw messages (files, stdin, IMAP), reading a mail, finding its turn files."""

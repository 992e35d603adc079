"""The player portal's pages and stylesheet (gm serve)."""

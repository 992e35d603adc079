"""The player portal: a Flask app served by waitress, built on gm's services (see docs/portal.md)."""

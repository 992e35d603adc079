"""The player portal: a Flask app served by granian, built on gm's services (see docs/portal.md)."""

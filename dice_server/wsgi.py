"""The WSGI entry point for gunicorn: ``gunicorn dice_server.wsgi:app``."""

from dice_server.app import create_app

app = create_app()

"""Channels over HTTP: the JSON API and the pages. Adapters only translate."""

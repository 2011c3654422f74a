"""Channels over HTTP: the JSON API and (later) the pages. Adapters only translate."""

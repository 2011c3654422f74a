"""The PBEM league's dice server and league service.

Channels (``web/``, ``mail/``, ``triplea/``'s protocol and pages, ``cli``) translate and call
one service function per step (``services/``, ``triplea/``'s tables and addresses); services
own the transaction and write through the ledger (``ledger``, ``dice``) to storage
(``models``, ``db``). ``dice_server.app.create_app`` builds the web application.
"""

"""The instance's three secrets, each in its own file under ``instance/``.

``pbem init`` creates them once (O_EXCL, mode 0600) before any worker starts;
``create_app`` only loads them and refuses to start without them. There are no
default secrets anywhere.
"""

from __future__ import annotations

import base64
import os
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from dice_server.verifier import key_id

SECRET_KEY_FILE = "secret_key"  # noqa: S105 - a file name, not a secret
SIGNING_KEY_FILE = "signing_key.pem"
SEED_KEY_FILE = "seed_key"


class MissingKeys(RuntimeError):
    """The instance has not been initialised: the service will not run on made-up secrets."""


def _write_once(path: Path, content: bytes) -> bool:
    """Create ``path`` with mode 0600 unless it exists; return whether it was created."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return False
    with os.fdopen(fd, "wb") as fh:
        fh.write(content)
        fh.flush()
        os.fsync(fh.fileno())
    return True


def signing_key_pem(key: Ed25519PrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def init_instance(path: Path) -> list[Path]:
    """Make whichever of the three key files is missing. Idempotent; returns what it made."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    made = []
    contents: dict[str, Callable[[], bytes]] = {
        SECRET_KEY_FILE: lambda: secrets.token_hex(32).encode(),
        SIGNING_KEY_FILE: lambda: signing_key_pem(Ed25519PrivateKey.generate()),
        SEED_KEY_FILE: lambda: secrets.token_hex(32).encode(),
    }
    for name, make in contents.items():
        target = path / name
        if not target.exists() and _write_once(target, make()):
            made.append(target)
    return made


@dataclass(frozen=True)
class Signer:
    """The current Ed25519 signing key."""

    private_key: Ed25519PrivateKey

    @cached_property
    def public_raw(self) -> bytes:
        return self.private_key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )

    @cached_property
    def key_id(self) -> str:
        return key_id(self.public_raw)

    @cached_property
    def public_b64(self) -> str:
        return base64.b64encode(self.public_raw).decode("ascii")

    def sign(self, body: bytes) -> str:
        """Ed25519 over the body bytes, standard padded base64."""
        return base64.b64encode(self.private_key.sign(body)).decode("ascii")


@dataclass(frozen=True)
class SeedBox:
    """Encrypts dice seeds at rest (AES-256-GCM), bound to the game and commitment."""

    key: bytes

    @cached_property
    def _cipher(self) -> AESGCM:
        return AESGCM(self.key)

    def seal(self, seed: bytes, label: str) -> bytes:
        nonce = secrets.token_bytes(12)
        return nonce + self._cipher.encrypt(nonce, seed, label.encode())

    def open(self, sealed: bytes, label: str) -> bytes:
        return self._cipher.decrypt(sealed[:12], sealed[12:], label.encode())


class SigningKeyFile:
    """The current signing key, re-read when ``pbem keys rotate`` replaces its file, so a
    rotation takes effect in every running worker at its next append."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._stamp: tuple[int, int, int] | None = None
        self._signer: Signer | None = None

    def current(self) -> Signer:
        try:
            info = os.stat(self.path)
        except FileNotFoundError:
            raise MissingKeys(f"{self.path} is missing: restore it or run `pbem init`") from None
        stamp = (info.st_ino, info.st_mtime_ns, info.st_size)
        with self._lock:
            if self._signer is None or stamp != self._stamp:
                self._signer = Signer(read_signing_key(self.path))
                self._stamp = stamp
            return self._signer


@dataclass(frozen=True)
class InstanceKeys:
    secret_key: bytes
    signing: SigningKeyFile
    seed_box: SeedBox

    @property
    def signer(self) -> Signer:
        return self.signing.current()


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise MissingKeys(
            f"{path} is missing: run `pbem init` to create the instance's keys"
        ) from None


def read_signing_key(path: Path) -> Ed25519PrivateKey:
    private = serialization.load_pem_private_key(_read(path), password=None)
    if not isinstance(private, Ed25519PrivateKey):
        raise MissingKeys(f"{path} is not an Ed25519 private key")
    return private


def load_keys(path: Path) -> InstanceKeys:
    secret = _read(path / SECRET_KEY_FILE).strip()
    seed_key = bytes.fromhex(_read(path / SEED_KEY_FILE).decode("ascii").strip())
    if len(secret) < 32 or len(seed_key) != 32:
        raise MissingKeys(f"the key files in {path} are truncated: restore them from backup")
    signing = SigningKeyFile(path / SIGNING_KEY_FILE)
    signing.current()
    return InstanceKeys(secret_key=secret, signing=signing, seed_box=SeedBox(seed_key))


def new_signer() -> Signer:
    """A fresh Ed25519 signing key, not yet installed anywhere."""
    return Signer(Ed25519PrivateKey.generate())


def replace_signing_key(path: Path, new: Signer | None = None) -> Signer:
    """Write a new signing key (``new``, else a fresh one) over the current one,
    atomically (new file, fsync, rename).

    The old private key is destroyed: it can sign nothing more, not even a back-dated
    entry. Its public key stays published (the caller publishes both first).
    """
    new = new or new_signer()
    target = path / SIGNING_KEY_FILE
    staging = path / f"{SIGNING_KEY_FILE}.{new.key_id}.new"
    if not _write_once(staging, signing_key_pem(new.private_key)):
        raise RuntimeError(f"{staging} exists: remove it and rotate again")
    os.replace(staging, target)
    directory = os.open(path, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
    return new

"""What the rows of the hostile-request suite share: paths, statuses, keys, ports."""
import functools
import secrets
import socket
import subprocess


class StartError(Exception):
    """A server that did not start (row.start raises it): its log, and why (its exit status
    and its log's last lines, or no answer)."""

    def __init__(self, log, message):
        super().__init__(message)
        self.log, self.message = log, message


def unsafe(path):
    """The request path of an unsigned server."""
    return "/unsafe" + path


def is_4xx(status):
    return str(status).startswith("4")


def no_answer_or_5xx(status):
    return not isinstance(status, int) or str(status).startswith("5")


def text(body, count=100):
    return body[:count].decode("utf-8", "replace")


@functools.cache
def jobs_flag(binary):
    """The flag for parallel renders: --jobs, or --workers where the binary has it."""
    help_text = subprocess.run([binary, "serve", "--help"], capture_output=True, text=True)
    return "--workers" if "--workers" in help_text.stdout + help_text.stderr else "--jobs"


def new_keys():
    """A fresh signing key (32 bytes) and salt (16 bytes), in hex."""
    return secrets.token_hex(32), secrets.token_hex(16)


def write(path, body):
    with open(path, "wb") as file:
        file.write(body)



def shown(value):
    """A metric's value as the report shows it: "absent", or the number."""
    return "absent" if value is None else f"{value:g}"



def free_port():
    """A TCP port of 127.0.0.1 that was free when asked."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


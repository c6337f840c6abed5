#!/usr/bin/env python3
"""Starts the Django REST Framework server of the DataClient tests.

    serve.py DATABASE_FILE

Creates the tables and the sample rows in DATABASE_FILE (a fresh file per run), listens on an
ephemeral port of 127.0.0.1 and prints "LISTENING <port>" once it accepts connections. It exits
when its standard input closes, so a test that dies takes the server with it.
"""
import os
import sys
import threading

# The source tree stays clean: no __pycache__ next to the project's modules.
sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
os.environ["DATACLIENT_DJANGO_DB"] = sys.argv[1]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dcserver.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402

from todos.models import Todo  # noqa: E402

call_command("migrate", run_syncdb=True, verbosity=0)
User.objects.create_user("alice", password="wonderland")
# Eight rows: pages of three end with a short page (3, 3, 2).
for number in range(1, 9):
    Todo.objects.create(user_id=1 + number % 2, title=f"todo {number}", completed=number % 3 == 0)


class QuietHandler(WSGIRequestHandler):
    def log_message(self, format, *args):
        pass


server = ThreadedWSGIServer(("127.0.0.1", 0), QuietHandler, ipv6=False)
server.set_app(get_wsgi_application())


def exit_when_stdin_closes():
    sys.stdin.read()
    os._exit(0)


threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
print(f"LISTENING {server.server_address[1]}", flush=True)
server.serve_forever()

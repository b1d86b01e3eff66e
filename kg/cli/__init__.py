"""The ``kg`` command: a thin layer over the library.

Each subcommand lives in its own module ``kg/cli/<name>.py`` exposing a click command named
``command``; modules are imported only when their subcommand runs, so ``kg --help`` stays fast
and ``kg search`` never imports spaCy.
"""

from __future__ import annotations

import errno
import importlib
import os
import signal
import sys

import click

from kg import __version__
from kg.errors import PaperkgError

#: subcommand -> one-line help (shown by ``kg --help`` without importing the module).
COMMANDS: dict[str, str] = {
    "build": "Run everything: ingest, extract, graph, RDF, views.",
    "ingest": "Read paper records of any supported format into merged JSON Lines.",
    "extract": "Extract methods, benchmarks, concepts and citations from abstracts.",
    "authors": "List authors; --duplicates shows probable same-person name variants.",
    "stats": "Summary table of a build: counts, top entities, communities.",
    "search": "Full-text search over papers, authors and entities.",
    "related": "Related authors (or papers) with the reasons why.",
    "sparql": "Run a SPARQL query (text, file, or a shipped example) on a build.",
    "serve": "Serve a build as a read-only SPARQL endpoint.",
    "push": "Load a build into an external SPARQL server (Graph Store Protocol).",
    "view": "Write interactive HTML views (overview or focused).",
    "export": "Export the graph as GraphML, GEXF, JSON, Neo4j CSV or VOSviewer JSON.",
}


#: Exit status of a command whose reader went away (``kg stats | head -1``): what the shell
#: reports for a program that SIGPIPE ended, as for ``git log | head -1``.
EXIT_STDOUT_CLOSED = 128 + signal.SIGPIPE


class _StdoutClosed(Exception):
    """The reader of standard output went away. Not an OSError, so that click does not turn it
    into an error (it catches EPIPE itself and exits with status 1)."""


def _stdout_is_broken() -> bool:
    """Whether standard output is a pipe (or socket) nobody reads any more."""
    import select

    try:
        fd = sys.__stdout__.fileno() if sys.__stdout__ is not None else 1
        poller = select.poll()
        poller.register(fd, select.POLLOUT)
        return any(ev & select.POLLERR for _, ev in poller.poll(0))
    except (OSError, ValueError, AttributeError):
        return False


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so that the interpreter's last flush of what is still
    buffered for the closed pipe neither fails nor prints 'Exception ignored ...'."""
    try:
        fd = sys.__stdout__.fileno() if sys.__stdout__ is not None else 1
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


class LazyGroup(click.Group):
    # Both run inside click's main, which turns any EPIPE into status 1: a write to stdout after
    # its reader left (``| head``) becomes _StdoutClosed first. An EPIPE of a socket (kg push to a
    # server that hung up) stays an error like any other.

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: object) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)  # prints --help, --version
        except OSError as exc:
            if exc.errno == errno.EPIPE and _stdout_is_broken():
                raise _StdoutClosed() from exc
            raise

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except OSError as exc:
            if exc.errno == errno.EPIPE and _stdout_is_broken():
                raise _StdoutClosed() from exc
            raise

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        try:
            module = importlib.import_module(f"kg.cli.{cmd_name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"kg.cli.{cmd_name}":
                return _not_yet(cmd_name)
            raise
        return module.command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl(list(COMMANDS.items()))


def _not_yet(name: str) -> click.Command:
    @click.command(name, help=COMMANDS[name], context_settings={"ignore_unknown_options": True})
    @click.argument("args", nargs=-1, type=click.UNPROCESSED)
    def missing(args: tuple[str, ...]) -> None:
        raise PaperkgError(f"`kg {name}` is not available in this version of paperkg")

    return missing


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="paperkg")
@click.option("--debug", is_flag=True, help="Show full tracebacks on errors.")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """paperkg: turn paper records into a knowledge graph you can explore, query and search."""
    ctx.ensure_object(dict)
    ctx.obj["debug"] = debug


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``kg`` script: one line on stderr and status 1 for user errors.

    A command whose standard output is closed by its reader (``kg stats OUT | head -1``) stops
    quietly with status 141 (128 + SIGPIPE, what the shell reports for ``git log | head -1``)
    when it wrote after the reader left; one whose output all went out first returns 0.
    """
    args = sys.argv[1:] if argv is None else argv
    wrote_to_a_closed_pipe = False

    def note(signum: int, frame: object) -> None:
        nonlocal wrote_to_a_closed_pipe
        wrote_to_a_closed_pipe = True

    try:
        # Python ignores SIGPIPE (the write fails with EPIPE instead); noting it tells a write
        # that was cut short, which Python's buffered writer can report as complete
        previous = signal.signal(signal.SIGPIPE, note)
    except ValueError:  # not the main thread: no signal handlers
        previous = None
    try:
        code = _run_command(args)
        try:
            sys.stdout.flush()  # now, not at the interpreter's exit where a failure is a traceback
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                click.echo(f"kg: error: {exc.strerror or exc}", err=True)
                return 1
            wrote_to_a_closed_pipe = True
        if code == EXIT_STDOUT_CLOSED or (wrote_to_a_closed_pipe and _stdout_is_broken()):
            _silence_stdout()
            return EXIT_STDOUT_CLOSED
        return code
    finally:
        if previous is not None:
            signal.signal(signal.SIGPIPE, previous)


def _run_command(args: list[str]) -> int:
    debug = "--debug" in args
    try:
        cli.main(args=args, prog_name="kg", standalone_mode=False)
    except PaperkgError as exc:
        if debug:
            raise
        click.echo(f"kg: error: {exc}", err=True)
        return 1
    except click.exceptions.Abort:
        click.echo("kg: aborted", err=True)
        return 130
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except _StdoutClosed:
        return EXIT_STDOUT_CLOSED
    except OSError as exc:
        # the system refused a read or write the commands did not foresee (a full disk, a
        # permission, a vanished file): one line naming the file when the system names it
        if debug:
            raise
        where = f"{exc.filename}: " if exc.filename else ""
        click.echo(f"kg: error: {where}{exc.strerror or exc} (kg --debug ... shows the traceback)", err=True)
        return 1
    return 0


def run() -> None:
    sys.exit(main())

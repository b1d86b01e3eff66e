"""The ``kg`` command: a thin layer over the library.

Each subcommand lives in its own module ``kg/cli/<name>.py`` exposing a click command named
``command``; modules are imported only when their subcommand runs, so ``kg --help`` stays fast
and ``kg search`` never imports spaCy.
"""

from __future__ import annotations

import importlib
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


class LazyGroup(click.Group):
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
    """Entry point of the ``kg`` script: one line on stderr and status 1 for user errors."""
    args = sys.argv[1:] if argv is None else argv
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
    except BrokenPipeError:
        return 0
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

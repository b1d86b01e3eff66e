from kg.cli import run

run()

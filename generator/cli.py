"""placeholder"""
import click

@click.group()
def main() -> None:
    """citgen"""

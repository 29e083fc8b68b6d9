"""`engram screen TEXT`: would a write of TEXT be refused, and why (`--explain`: every signal and its strength)."""

from __future__ import annotations

import click

from engram.safety.instructions import ORIGINS


def register(main: click.Group) -> None:
    main.add_command(screen_command)


@click.command("screen")
@click.argument("text")
@click.option("--explain", is_flag=True, help="Show each signal: secret kinds, rule families, the classifier's logit parts.")
@click.option("--origin", type=click.Choice(ORIGINS), default="user", show_default=True,
              help="Where the text comes from: text from a tool, a page or a document is held to a stricter bar.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of lines.")
def screen_command(text: str, explain: bool, origin: str, as_json: bool) -> None:
    """Run the secret and instruction screens on TEXT, as a write would. Exit status 1 when refused."""
    from engram.interfaces.cli import emit
    from engram.safety.screen import explain as explain_text

    report = explain_text(text, origin=origin)
    ins = report["instruction"]

    def lines() -> list[str]:
        out = [f"refused: {report['reason']}" if report["refused"] else "kept"]
        if not explain:
            return out
        found = report["secrets"]["found"]
        out.append(f"secrets: {', '.join(found)} -> {report['secrets']['redacted']}" if found else "secrets: none")
        rules = ", ".join(f"{rule} ({view})" for rule, view in ins["rules"].items()) or "none"
        out += [
            f"instruction probability: {ins['probability']:.3f} (refused at >= {ins['threshold']:.3f}; "
            f">= {ins['rule_threshold']:.3f} with a strong rule; origin {ins['origin']})",
            f"rule families fired: {rules}",
            "logit parts: " + ", ".join(f"{name} {value:+.2f}" for name, value in ins["logit"].items()),
            "n-grams pushing towards 'instruction': " + ", ".join(f"{g!r} {w:+.2f}" for g, w in ins["top_ngrams"]),
        ]
        if ins["directive_from_untrusted_origin"]:
            out.append("an order in text from an untrusted origin")
        if ins["window"]:
            out.append(f"strongest window: {ins['window'][:120]!r}")
        return out

    emit(as_json, report, lines)
    if report["refused"]:
        raise SystemExit(1)

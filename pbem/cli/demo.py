"""`make demo`: a real game played over the real protocol, through the real CLI.

Every step runs the installed ``pbem`` command in a subprocess, as players
would: two homes with their own identities (passphrase-protected, scrypt work
factor 18), a proposal, a join, then the turn files of a scripted game, each
file carried from one home to the other as a mail attachment would be. The
script of orders comes from the game's rules module (``demo_script``), so
this front names no game.

Mail is real too: an SMTP server on loopback (aiosmtpd) delivers each mail
pbem sends into the recipient's Maildir, from which that player's pbem
receives it (`pbem receive --maildir`).

Output, under --out (default demo-out/):
  homes/<seat>/        each player's pbem home
  files/               every file that travelled, in order
  mail/                every mail, as .eml, in the order sent
  maildirs/<seat>/     each player's mailbox
  summaries/<seat>/    the summary each player read after each file (its local, private view)
  orders/              every order file that was played
  log.txt              every command and its output
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from pbem import rulesapi

DICE_RELEASE = "dice release"  # the phase of an engine release-only file (pbem.protocol.dicefiles)


class MailServer:
    """A loopback SMTP server that files each mail into its recipient's Maildir and into mail/."""

    def __init__(self, out: Path, boxes: dict[str, Path]) -> None:
        self.out = out
        self.boxes = boxes
        self.count = 0
        self.controller: object = None
        self.port = 0

    def start(self) -> int:
        import mailbox
        import socket

        from aiosmtpd.controller import Controller

        server = self

        class Handler:
            async def handle_DATA(self, srv: object, session: object, envelope: object) -> str:
                data: bytes = envelope.content  # type: ignore[attr-defined]
                server.count += 1
                (server.out / "mail" / f"{server.count:03d}.eml").write_bytes(data)
                for rcpt in envelope.rcpt_tos:  # type: ignore[attr-defined]
                    local = rcpt.split("@")[0]
                    if local in server.boxes:
                        mailbox.Maildir(server.boxes[local], create=True).add(data)
                return "250 OK"

        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        controller = Controller(Handler(), hostname="127.0.0.1", port=self.port)
        controller.start()
        self.controller = controller
        return self.port

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()  # type: ignore[attr-defined]


class Demo:
    def __init__(self, out: Path, seed: str) -> None:
        self.out = out
        self.seed = seed
        self.log = (out / "log.txt").open("w", encoding="utf-8")
        self.exe = [sys.executable, "-m", "pbem.cli"]
        self.sent = 0
        self.homes: dict[str, str] = {}  # seat -> the home folder playing it, after a handover

    def home(self, seat: str) -> Path:
        return self.out / "homes" / self.homes.get(seat, seat)

    def run(self, seat: str, *args: str, ok: bool = True) -> str:
        who = self.homes.get(seat, seat)
        env = {**os.environ, "PBEM_PASSPHRASE": f"demo passphrase of {who}", "PBEM_INSECURE_SEED": self.seed}
        env.pop("PBEM_HOME", None)
        cmd = [*self.exe, "--home", str(self.home(seat)), *args]
        t = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True, env=env)
        dt = time.perf_counter() - t
        self.log.write(f"$ [{seat}] pbem {' '.join(args)}   ({dt:.2f}s)\n{p.stdout}{p.stderr}\n")
        self.log.flush()
        if ok and p.returncode != 0:
            sys.stderr.write(f"demo step failed: [{seat}] pbem {' '.join(args)}\n{p.stdout}{p.stderr}")
            raise SystemExit(1)
        return p.stdout

    def pending(self, seat: str, game_id: str) -> tuple[str, str] | None:
        """(seat, phase) that must act next, read from `pbem status` as a player would."""
        import re

        text = self.run(seat, "status")
        m = re.search(r"YOUR MOVE: (.+)", text)
        if m:
            return seat, m.group(1).strip()
        # a seat playing several sides is named with them: "from western (western, soviet) (phase)"
        m = re.search(r"waiting for file \d+ from (\S+)(?: \([^)]*\))? \((.+?)\), their move", text)
        return (m.group(1), m.group(2)) if m else None

    def newest_outbox(self, seat: str) -> Path:
        files = sorted(self.home(seat).glob("data/games/*/outbox/*.pbem"), key=lambda p: p.stat().st_mtime_ns)
        return files[-1]

    def carry(self, src: Path) -> Path:
        """What mail does: the file leaves one home and lands in files/."""
        self.sent += 1
        dst = self.out / "files" / src.name
        shutil.copyfile(src, dst)
        return dst


def parse_script(text: str) -> list[tuple[str, str]]:
    """Blocks of `ORDERS <seat>` ... `END`; returns (seat, order text) in order.

    A line `PASS-UNTIL <phase prefix>` (seat "*") makes whoever must act send
    `end-phase` until the pending phase starts with the prefix, so a script can
    close a turn whatever the dice did to the steps in between.
    """
    steps: list[tuple[str, str]] = []
    seat: str | None = None
    buf: list[str] = []
    for line in text.splitlines():
        if line.startswith("PASS-UNTIL ") and seat is None:
            steps.append(("*", line.split(None, 1)[1].strip()))
        elif line.startswith("ORDERS "):
            seat, buf = line.split(None, 1)[1].strip(), []
        elif line.strip() == "END" and seat is not None:
            steps.append((seat, "\n".join(buf) + "\n"))
            seat = None
        elif seat is not None:
            buf.append(line)
    return steps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--out", default="demo-out")
    ap.add_argument("--rules", default="use")
    ap.add_argument("--scenario", default="france-1940")
    ap.add_argument("--seed", default="pbem demo 1",
                    help="Fixed randomness so the demo replays identically ('' for real randomness).")
    ap.add_argument("--handover", metavar="SEAT@N", default="",
                    help="After file N, SEAT hands its seat over to a substitute player (a new home).")
    ap.add_argument("--dice", choices=("strict", "window"), default="strict",
                    help="The game's dice mode (strict, the default: nobody can know a roll before the "
                         "action using it is signed; window: the game option strict_dice=false).")
    a = ap.parse_args()
    out = Path(a.out).resolve()
    if out.exists():
        shutil.rmtree(out)
    for sub in ("homes", "files", "orders", "mail", "maildirs", "summaries"):
        (out / sub).mkdir(parents=True)
    rules = rulesapi.get(a.rules)
    scen = rules.load_scenario(a.scenario)
    script = rules.demo_script(a.scenario)
    d = Demo(out, a.seed)
    seats = list(scen.seats)
    host = seats[0]
    boxes = {s: out / "maildirs" / s for s in seats}
    smtp = MailServer(out, boxes)
    port = smtp.start()
    try:
        play(d, a, out, rules, scen, script, seats, host, boxes, port)
    finally:
        smtp.stop()
    print(f"mails sent: {smtp.count} in {out / 'mail'}")


def play(d: Demo, a: argparse.Namespace, out: Path, rules: rulesapi.RulesModule, scen: rulesapi.Scenario,
         script: str | None, seats: list[str], host: str, boxes: dict[str, Path], port: int) -> None:
    print(f"pbem demo: {rules.title}, scenario {scen.title}; seats {', '.join(seats)}")
    _make_players(d, out, seats, boxes, port)
    game_id = _open_game(d, a, out, seats, host)
    handover = tuple(a.handover.split("@")) if a.handover else None
    per_turn = _play_script(d, out, seats, host, game_id, list((script and parse_script(script)) or []),
                            boxes, port, handover)
    to = len(seats) - 1
    print(f"  emails per game turn ({a.dice} dice; a file is one email to each of the {to} other player"
          + ("s" if to > 1 else "") + "): " + ", ".join(f"{t}: {n}" for t, n in per_turn.items()))
    for s in seats:
        print("  " + d.run(s, "verify", "--all").strip().replace("\n", "\n  ") + f"   [{s}]")
        print("  " + d.run(s, "status").strip().replace("\n", "\n  ") + f"   [{s}]")
    _end_by_agreement(d, seats, host, game_id)
    for s in seats:  # after the reveals each home audits the whole game with every secret
        print("  " + d.run(s, "verify", game_id).strip().replace("\n", "\n  ") + f"   [{s}]")
    _observe(d, out, host, game_id)
    print(f"files that travelled: {d.sent} in {out / 'files'}")
    print(f"summaries: {out / 'summaries'} (one per player per file; open them in a browser)")
    print(f"homes: {out / 'homes'}; command log: {out / 'log.txt'}")


def _make_players(d: Demo, out: Path, seats: list[str], boxes: dict[str, Path], port: int) -> None:
    """Each seat's identity, its card for the host, and a mail config pointing at the loopback server."""
    for seat in seats:
        d.run(seat, "key", "new", "--name", f"{seat.title()} Player", "--email", f"{seat}@example.org")
        d.run(seat, "key", "card", "-o", str(out / f"{seat}.card"))
        (d.home(seat) / "config" / "config.toml").write_text(
            f'[mail]\nfrom = "{seat.title()} Player <{seat}@example.org>"\nsmtp_host = "127.0.0.1"\n'
            f'smtp_port = {port}\nsmtp_security = "none"\nmaildir = "{boxes[seat]}"\n', encoding="utf-8")


def _receive_all(d: Demo, seats: list[str], sender: str) -> None:
    """Every seat but ``sender`` fetches its mail."""
    for o in seats:
        if o != sender:
            d.run(o, "receive", "--maildir")


def _open_game(d: Demo, a: argparse.Namespace, out: Path, seats: list[str], host: str) -> str:
    """The host proposes; every other seat receives the invitation, checks fingerprints and joins."""
    fprs = {s: d.run(s, "key", "fingerprint").strip() for s in seats}
    args = ["game", "new", "--rules", a.rules, "--scenario", a.scenario,
            "--option", f"strict_dice={'true' if a.dice == 'strict' else 'false'}"]
    for s in seats:
        args += ["--seat", f"{s}=me" if s == host else f"{s}={out / (s + '.card')}"]
    d.run(host, *args)
    proposal = d.carry(d.newest_outbox(host))
    print(f"  {host} proposed the game: {proposal.name}")
    for s in seats[1:]:
        expect = [x for o in seats if o != s for x in ("--expect", f"{o}={fprs[o]}")]
        d.run(s, "receive", "--maildir")  # the proposal arrives by mail: an invitation
        invitation = sorted((d.home(s) / "data" / "invitations").glob("*.pbem"))[0]
        d.run(s, "game", "join", str(invitation), *expect, "--accept-options")
        j = d.carry(d.newest_outbox(s))
        if s != seats[1]:  # earlier seats' joins wait in the mailbox until this seat has joined
            d.run(s, "receive", "--maildir")
        _receive_all(d, seats, s)
        print(f"  {s} checked the fingerprints and joined: {j.name}")
    return proposal.name.split("-")[0]


def _play_script(d: Demo, out: Path, seats: list[str], host: str, game_id: str,
                 steps: list[tuple[str, str]], boxes: dict[str, Path], port: int,
                 handover: tuple[str, ...] | None) -> dict[str, int]:
    """Play the script's order files in turn; returns the files sent per game turn."""
    i = 0
    per_turn: dict[str, int] = {}
    turn = "start"
    while steps:
        pending = d.pending(host, game_id)
        if pending is not None and pending[1] == DICE_RELEASE:
            # Strict dice: a seat owes the seeds of rolls reserved after its last file; its
            # tool writes a release-only file (no orders, no choice).
            steps.insert(0, (pending[0], ""))
        elif pending is not None and any(ch.isdigit() for ch in pending[1].split(" ", 1)[0]):
            turn = pending[1].split(" ", 1)[0]  # the game turn's date: "1940-05", "3/13/44"
        seat, text = steps.pop(0)
        if seat == "*":
            pending = d.pending(host, game_id)
            if pending is None or pending[1].startswith(text):
                continue
            steps[:0] = [(pending[0], "end-phase\n"), ("*", text)]
            continue
        i += 1
        per_turn[turn] = per_turn.get(turn, 0) + 1
        _play_file(d, out, seats, game_id, i, seat, text)
        if handover is not None and str(i) == handover[1]:
            _hand_over(d, out, seats, game_id, handover[0], boxes, port)
    return per_turn


def _hand_over(d: Demo, out: Path, seats: list[str], game_id: str, seat: str, boxes: dict[str, Path],
               port: int) -> None:
    """``seat``'s player leaves the campaign: a substitute makes an identity, its player's card
    goes to the leaving player, who writes the handover (mailed to the others) and the game's
    archive; the substitute imports it and plays the seat from its own home from now on."""
    sub = f"{seat}2"
    boxes[sub] = out / "maildirs" / sub  # the mail server delivers to <local part>@ by this map
    d.run(sub, "key", "new", "--name", f"{seat.title()} Substitute", "--email", f"{sub}@example.org")
    d.run(sub, "key", "card", "-o", str(out / f"{sub}.card"))
    (d.home(sub) / "config" / "config.toml").write_text(
        f'[mail]\nfrom = "{seat.title()} Substitute <{sub}@example.org>"\nsmtp_host = "127.0.0.1"\n'
        f'smtp_port = {port}\nsmtp_security = "none"\nmaildir = "{boxes[sub]}"\n', encoding="utf-8")
    archive = out / f"handover-{seat}.pbem-archive"
    d.run(seat, "game", "handover", game_id, "--seat", seat, "--to", str(out / f"{sub}.card"), "-o", str(archive))
    f = d.carry(d.newest_outbox(seat))
    _receive_all(d, seats, seat)
    print(f"  {seat} hands the seat over to a substitute player: {f.name}, and the archive {archive.name}")
    d.homes[seat] = sub
    print("  " + d.run(seat, "archive", "import", str(archive)).strip().replace("\n", "\n  ") + f"   [{sub}]")


def _play_file(d: Demo, out: Path, seats: list[str], game_id: str, i: int, seat: str, text: str) -> None:
    """File ``i``: ``seat`` checks and plays ``text``; the others receive it and save their summary."""
    of = out / "orders" / f"{i:03d}-{seat}.txt"
    of.write_text(text, encoding="utf-8")
    if text:
        d.run(seat, "orders", "check", game_id, "--orders", str(of))
    t = time.perf_counter()
    d.run(seat, "play", game_id, "--orders", str(of))
    dt = time.perf_counter() - t
    d.carry(d.newest_outbox(seat))
    for o in seats:
        if o != seat:
            d.run(o, "receive", "--maildir")
            (out / "summaries" / o).mkdir(exist_ok=True)
            d.run(o, "show", game_id, "--html", "-o", str(out / "summaries" / o / f"{i:03d}.html"))
    first = next((ln for ln in text.splitlines() if ln.strip() and not ln.startswith("#")),
                 "(dice release: no orders)")
    print(f"  file {i:2}: {seat:8} {first[:60]:60} ({dt:.1f}s)")


def _end_by_agreement(d: Demo, seats: list[str], host: str, game_id: str) -> None:
    """The seat whose move it is proposes to stop and every other seat accepts (signed files, by
    mail); then each reveals everything it kept sealed."""
    for _ in seats:
        pend = d.pending(host, game_id)
        if pend is None:
            raise RuntimeError("the game ended before the players agreed to stop")
        d.run(pend[0], "game", "end", game_id, "--agree")
        d.carry(d.newest_outbox(pend[0]))
        _receive_all(d, seats, pend[0])
    for s in seats:
        d.run(s, "game", "end", game_id)
        d.carry(d.newest_outbox(s))
        _receive_all(d, seats, s)
    print("  the players agreed to stop (a signed proposal and acceptance); both revealed their secrets")


def _observe(d: Demo, out: Path, host: str, game_id: str) -> None:
    """A seatless observer imports the archive, audits the game and writes its history; the host's
    proof of the game is checked."""
    archive = out / "game.pbemarchive"
    d.run(host, "archive", "export", game_id, "-o", str(archive))
    d.run("observer", "key", "new", "--name", "An Observer", "--email", "observer@example.org")
    print("  " + d.run("observer", "archive", "import", str(archive)).strip())
    report = d.run("observer", "verify", game_id).strip()
    print("  observer: " + report.replace("\n", "\n  observer: "))
    d.run("observer", "archive", "history", game_id, "-o", str(out / "history.html"))
    print(f"  the observer wrote the game's HTML history: {out / 'history.html'}")
    d.run(host, "verify", game_id, "--proof", str(out / "proof.bin"))
    print("  " + d.run("observer", "check-proof", str(out / "proof.bin")).strip().replace("\n", "\n  "))

if __name__ == "__main__":
    main()

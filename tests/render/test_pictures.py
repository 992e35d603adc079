"""Map pictures drawn by the render workers (gm/render/pictures.py): the report's HTML and PDF are
what they were when the process that made the HTML drew them, and that process never imports
CairoSVG during a turn run."""

from __future__ import annotations

import dataclasses
import functools
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gm.render import pictures, worker
from gm.render.environment import asset_dirs, base_url, make_environment, render_report_html
from gm.render.pictures import shared_images
from gm.render.pool import RenderJob, RenderPool, render_pdfs
from gm.render.svgmap import svg_map
from gm.rulesets import installed, template_dirs

from . import ruleset_report
from .sample_game import clash_view

CREATED = "2026-11-21T19:00:00Z"
# The rulesets whose reports show pictures drawn by CairoSVG: graph maps and the hex board.
DRAWN = ("clash", "conqueror", "empires", "imperials")


@functools.cache
def _environment(ruleset_name: str):
    return make_environment(None, template_dirs(installed()[ruleset_name]))


def _deferred_job(env, context: dict, out) -> RenderJob:
    with pictures.deferred() as named:
        html = render_report_html(env, context)
    return RenderJob(html, base_url(), CREATED, "t/1/X", out, shared_images(html), tuple(named.values()))


@pytest.mark.parametrize("ruleset_name", DRAWN)
def test_the_html_a_worker_draws_is_the_html_made_in_one_go(ruleset_name, tmp_path):
    env = _environment(ruleset_name)
    for context in ruleset_report.report_contexts(ruleset_name)[:2]:
        job = _deferred_job(env, context, tmp_path / "x.pdf")
        assert job.pictures and pictures.REFERENCE in job.html and "data:image/png" not in job.html
        plain = render_report_html(env, context)
        done = worker.drawn(job)
        assert done.html == plain  # the pictures' sizes in their figures' styles too
        assert (done.images, done.pictures) == (shared_images(plain), ())


@pytest.mark.parametrize("width_mm", [40.0, 77.7, 133.3, 150.2, 178.0, 265.0, 388.0])
def test_the_size_worked_out_is_the_size_cairosvg_draws(width_mm):
    for svg in (
        str(svg_map(clash_view("BR", 5)["map"], None, shared=True)),
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="3.5 -2 123.25 77.1"><rect width="5" height="5"/></svg>',
    ):
        _, width, height = pictures._draw(svg, width_mm)
        assert pictures.pixel_size(svg, pictures._pixels(width_mm)) == (width, height)


def test_an_svg_whose_size_is_not_plain_is_drawn_at_once():
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10cm" height="5cm"><rect width="5" height="5"/></svg>'
    with pictures.deferred() as named:
        url, _, _ = pictures.map_picture(svg, 50)
    assert url.startswith("data:image/png;base64,") and named == {}


def test_outside_deferred_a_picture_is_drawn_as_before():
    url, _, _ = pictures.map_picture(str(svg_map(clash_view("BR", 5)["map"], None, shared=True)))
    assert url.startswith("data:image/png;base64,")


def test_only_a_picture_reference_in_an_image_source_is_replaced(tmp_path):
    job = _deferred_job(_environment("clash"), ruleset_report.report_context("clash"), tmp_path / "x.pdf")
    reference = job.pictures[0].reference
    said = job.html.replace("</body>", f"<p>{reference}</p></body>")  # as a player's press could
    done = worker.drawn(dataclasses.replace(job, html=said))
    assert f"<p>{reference}</p>" in done.html and f'src="{reference}"' not in done.html


def test_a_pdf_drawn_by_the_workers_has_the_same_bytes(tmp_path):
    env = _environment("clash")
    contexts = ruleset_report.report_contexts("clash")[:2]
    plain = []
    for n, context in enumerate(contexts):
        html = render_report_html(env, context)
        plain.append(RenderJob(html, base_url(), CREATED, f"t/1/{n}", tmp_path / f"plain{n}.pdf", shared_images(html)))
    deferred = [_deferred_job(env, c, tmp_path / f"pool{n}.pdf") for n, c in enumerate(contexts)]
    deferred = [dataclasses.replace(j, identifier=f"t/1/{n}") for n, j in enumerate(deferred)]
    dirs = asset_dirs(env)
    made = render_pdfs(plain, workers=1, asset_dirs=dirs) + render_pdfs(deferred, workers=2, asset_dirs=dirs)
    assert [r.sha256 for r in made[:2]] == [r.sha256 for r in made[2:]]


def test_a_pool_draws_each_picture_once_and_hands_it_to_the_other_worker(tmp_path):
    """Two Conqueror turns (two boards, a region picture a seat) on two workers: every picture is
    drawn once in the pool, not once by each worker that renders a report of its turn, and the
    PDFs are those of one process.

    Each turn's first report goes alone, then the other four together: a free worker with only
    reports left whose board another worker is drawing draws it too rather than wait (the pool's
    _next_job), so with all six at once the count depended on how the machine scheduled the two
    workers (one held up 8 s in its first report: 9 pictures drawn, not 8)."""
    env = _environment("conqueror")
    contexts = [c for seed in (3, 4) for c in ruleset_report.report_contexts("conqueror", seed=seed)[:3]]
    jobs = [
        dataclasses.replace(_deferred_job(env, c, tmp_path / f"{n}.pdf"), identifier=f"t/{n}")
        for n, c in enumerate(contexts)
    ]
    references = {p.reference for job in jobs for p in job.pictures}
    boards = [r for r in references if sum(r in {p.reference for p in job.pictures} for job in jobs) == 3]
    assert len(boards) == 2  # each turn's board, in its three reports
    alone = render_pdfs(jobs, workers=1, asset_dirs=asset_dirs(env))
    firsts, rest = [jobs[0], jobs[3]], [jobs[1], jobs[2], jobs[4], jobs[5]]
    with RenderPool(2) as pool:
        pooled = [pool.submit([job], asset_dirs=asset_dirs(env)).results(timeout=300)[0] for job in firsts]
        pooled += pool.submit(rest, asset_dirs=asset_dirs(env)).results(timeout=300)
    assert len({r.pid for r in pooled[2:]}) == 2  # the worker that drew no board renders too
    assert pool.pictures_drawn == len(references)
    assert [r.sha256 for r in pooled] == [r.sha256 for r in [alone[n] for n in (0, 3, 1, 2, 4, 5)]]
    assert all(r.pictures == () for r in pooled + alone)  # the pictures stay in the pool


def test_a_pools_workers_share_a_turns_board_raster_drawn_once(tmp_path):
    """Conqueror's region pictures are cut from one board raster a turn (issue 32): the first
    worker draws it and leaves it in the pool's folder; the other worker reads it there and does
    not draw it again; the PDFs are those of one process; the folder goes with the pool."""
    env = _environment("conqueror")
    contexts = ruleset_report.report_contexts("conqueror", seed=3)[:4]
    jobs = [
        dataclasses.replace(_deferred_job(env, c, tmp_path / f"{n}.pdf"), identifier=f"t/{n}")
        for n, c in enumerate(contexts)
    ]
    assert all(any(p.crop is not None for p in job.pictures) for job in jobs)  # a region each
    alone = render_pdfs(jobs, workers=1, asset_dirs=asset_dirs(env))
    with RenderPool(2) as pool:
        folder = Path(pool._files.name)
        first = pool.submit(jobs[:1], asset_dirs=asset_dirs(env)).results(timeout=300)
        (raster,) = folder.glob("*.board")
        drawn = raster.stat()
        rest = pool.submit(jobs[1:], asset_dirs=asset_dirs(env)).results(timeout=300)
        again = raster.stat()  # a worker that drew it again would have put a new file in its place
    assert len({r.pid for r in first + rest}) == 2  # both workers cut regions
    assert (again.st_ino, again.st_mtime_ns) == (drawn.st_ino, drawn.st_mtime_ns)
    assert [r.sha256 for r in first + rest] == [r.sha256 for r in alone]
    assert not folder.exists()


def test_a_turn_run_never_imports_cairosvg_in_the_gm_process(tmp_path):
    script = tmp_path / "turn.py"
    script.write_text(
        textwrap.dedent(f"""\
        import sys
        from pathlib import Path

        from gm.cli import main

        def gm(*args):
            sys.argv = ["gm", *args, "--home", {str(tmp_path / "home")!r}]
            try:
                main()
            except SystemExit as exc:
                assert not exc.code, exc.code

        if __name__ == "__main__":
            gm("init")
            gm("game", "new", "c1", "--ruleset", "clash", "--seed", "5", "--robots", "4")
            gm("turn", "run", "c1", "--now")
            print(sorted(p.name for p in Path({str(tmp_path / "home" / "reports" / "c1" / "1")!r}).glob("*.pdf")))
            print([m for m in sys.modules if m.split(".")[0] in ("cairosvg", "cairocffi", "weasyprint")])
        """)
    )
    ran = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines()[-2:] == ["['BR.pdf', 'FR.pdf', 'GE.pdf', 'RU.pdf']", "[]"]

"""Compile every locale/*/LC_MESSAGES/*.po into its .mo, in pure Python (no gettext tools).

python -m tute_site.compile_messages
"""

from pathlib import Path

import polib

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


def compile_all(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    written = []
    for po_path in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
        mo_path = po_path.with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        polib.pofile(str(po_path)).save_as_mofile(str(mo_path))
        written.append(mo_path)
    return written


if __name__ == "__main__":
    for path in compile_all():
        print(f"compiled {path.relative_to(LOCALE_DIR.parent)}")

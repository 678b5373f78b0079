"""File Manager's row icons: an image file shows its own pixels, other files their type's sheet
(the band's colour per extension, the generic one otherwise), read from a screenshot."""

from __future__ import annotations

import io

from PIL import Image

PKG = "com.simplemobiletools.filemanager.pro"
FOLDER = "FmIcons"
GREEN = (20, 200, 40)


def rid(name: str) -> str:
    return f"{PKG}:id/{name}"


def band(img: Image.Image, b: dict[str, int]) -> tuple[int, ...]:
    """The colour at the middle of the icon's bottom band, away from its label."""
    x0, y0, x1, y1 = b["left"], b["top"], b["right"], b["bottom"]
    return img.getpixel((x0 + (x1 - x0) // 4, y0 + round((y1 - y0) * 0.83)))


def near(pixel: tuple[int, ...], color: tuple[int, int, int], tolerance: int = 30) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, color, strict=False))


def test_an_image_shows_its_pixels_and_other_files_their_type(u2d, adbd):
    buf = io.BytesIO()
    Image.new("RGB", (40, 40), GREEN).save(buf, "PNG")
    files = {"a_green.png": buf.getvalue(), "b_report.pdf": b"%PDF-1.4", "c_fake.jpg": b"jpeg?", "d_data.xyz": b"1"}
    for name, data in files.items():
        adbd.sync.push(data, f"/sdcard/{FOLDER}/{name}")
    try:
        adbd.shell(f"pm clear {PKG}")
        adbd.shell(f"pm grant {PKG} android.permission.MANAGE_EXTERNAL_STORAGE")
        u2d.app_start(PKG)
        u2d(resourceId=rid("item_name"), text=FOLDER).click()
        icons = {
            row.child(resourceId=rid("item_name")).get_text(): row.child(resourceId=rid("item_icon")).info["bounds"]
            for row in u2d(resourceId=rid("item_frame"))
        }
        img = u2d.screenshot(format="pillow").convert("RGB")
    finally:
        adbd.shell(["rm", "-rf", f"/sdcard/{FOLDER}"])
    b = icons["a_green.png"]
    assert near(img.getpixel(((b["left"] + b["right"]) // 2, (b["top"] + b["bottom"]) // 2)), GREEN)
    assert near(band(img, icons["b_report.pdf"]), (0xCC, 0x4B, 0x4C))  # ic_file_pdf
    assert near(band(img, icons["c_fake.jpg"]), (0x14, 0xA0, 0x85))  # not an image: ic_file_jpg
    assert near(band(img, icons["d_data.xyz"]), (0xC8, 0xBD, 0xB8))  # ic_file_generic

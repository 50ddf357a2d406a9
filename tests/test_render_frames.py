"""What the parent and the rendering child say to each other (generator/render/frames.py).

A request is a pickle after its length; an answer is a frame, its kind and length
before the text or the pickled problems. Both sides read lengths first, so the
layout is fixed here and checked byte for byte.
"""

from __future__ import annotations

import pickle

from generator.render.frames import FATAL, HEADER, LENGTH, MOST_BYTES, PROBLEMS, TEXT, Job


def test_a_frame_header_is_its_kind_then_its_length_in_eight_big_endian_bytes():
    assert HEADER.pack(TEXT, 258) == b"T" + (258).to_bytes(8, "big")
    assert HEADER.unpack(HEADER.pack(PROBLEMS, 2**40)) == (PROBLEMS, 2**40)
    assert HEADER.size == 9


def test_the_three_kinds_of_frame_are_one_distinct_byte_each():
    assert {len(kind) for kind in (TEXT, PROBLEMS, FATAL)} == {1}
    assert len({TEXT, PROBLEMS, FATAL}) == 3


def test_a_request_length_is_eight_big_endian_bytes():
    assert LENGTH.pack(5) == (5).to_bytes(8, "big")


def test_a_job_crosses_to_the_child_as_it_was_made():
    job = Job("instancetype.yaml.j2", {"name": "u1.small", "spec": {"cpu": {"guest": 1}}}, "'u1.small'")
    assert pickle.loads(pickle.dumps(job, pickle.HIGHEST_PROTOCOL)) == job
    assert Job("t.j2", {}).what is None


def test_a_character_of_a_rendered_text_takes_at_most_four_bytes():
    assert max(len(chr(point).encode("utf-8", "surrogatepass")) for point in (0x7F, 0x7FF, 0xFFFF, 0x10FFFF)) \
        == MOST_BYTES

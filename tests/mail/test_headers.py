"""gm.mail.headers: the modern policy with its header classes made once, the same mail out."""

from __future__ import annotations

from email import policy
from email.headerregistry import Address
from email.message import EmailMessage

import pytest

from gm.mail.headers import MODERN


def _mail(chosen: policy.EmailPolicy) -> EmailMessage:
    message = EmailMessage(policy=chosen)
    message["From"] = Address("Game Master", addr_spec="gm@example.org")
    message["To"] = Address("Ann <&> Co", addr_spec="ann@example.org")
    message["Subject"] = "Ihr Zug – turn 3 of g1 " + "long " * 30
    message["Auto-Submitted"] = "auto-generated"
    message.set_content("Hello Ann,\n\nyour report.\n")
    message.add_attachment(b"%PDF-1.7 ...", maintype="application", subtype="pdf", filename="g1-3-BR.pdf")
    message.set_boundary("=_gm_test")
    return message


def test_a_mail_in_gms_policy_is_the_mail_of_the_standard_one():
    assert _mail(MODERN).as_bytes(policy=policy.default) == _mail(policy.default).as_bytes(policy=policy.default)
    assert _mail(MODERN).as_bytes(policy=policy.default) == _mail(MODERN).as_bytes(policy=policy.default)


def test_each_header_class_is_made_once_and_kept():
    factory = MODERN.header_factory
    assert factory["Subject"] is factory["subject"]
    assert type(factory("Subject", "a")) is type(factory("SUBJECT", "b")) is factory["subject"]
    assert factory("Content-Type", "text/plain") is factory("Content-Type", "text/plain")  # remembered


def test_a_line_break_in_a_header_is_still_refused():
    message = EmailMessage(policy=MODERN)
    with pytest.raises(ValueError):
        message["Subject"] = "hi\r\nBcc: everyone@example.org"


def test_what_a_sender_writes_cannot_grow_the_remembered_headers_past_their_bound():
    """Intake parses every stranger's mail in this policy: a long header value is not
    remembered, and however many different short ones come, at most `maxsize` are kept."""
    factory = MODERN.header_factory
    long_value = "x" * 501  # LONGEST and one, written out: a raised limit fails, not a gigabyte made
    assert factory("Subject", long_value) is not factory("Subject", long_value)
    for n in range(2048 + 100):
        factory("X-Hostile", f"value {n}")
    info = factory.remembered.cache_info()
    assert info.currsize == info.maxsize == 2048

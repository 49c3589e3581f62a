import doctest

import pytest

from rankings import grades, services, xp


@pytest.mark.parametrize("module", [grades, xp, services], ids=lambda module: module.__name__)
def test_docstring_examples_hold(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0

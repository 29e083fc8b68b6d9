"""The public surface: one sorted __all__, every name importable and documented."""

from __future__ import annotations

import inspect

import engram
from engram import errors


def test_all_is_sorted_and_unique():
    assert engram.__all__ == sorted(set(engram.__all__))


def test_every_exported_name_exists_and_has_a_docstring():
    for name in engram.__all__:
        value = getattr(engram, name)
        assert inspect.getdoc(value), f"engram.{name} has no docstring"


def test_every_error_is_exported_and_rooted_at_engram_error():
    classes = [v for v in vars(errors).values() if inspect.isclass(v) and issubclass(v, Exception)]
    for cls in classes:
        assert issubclass(cls, errors.EngramError)
        assert cls.__name__ in engram.__all__, f"{cls.__name__} is not exported"
        assert cls.__name__ in errors.__doc__, f"{cls.__name__} is missing from the tree in errors.py"


def test_errors_also_inherit_the_builtin_they_resemble():
    assert issubclass(errors.InvalidInput, ValueError)
    assert issubclass(errors.NotFound, KeyError)
    assert issubclass(errors.AccessDenied, PermissionError)
    assert issubclass(errors.MissingDependency, ImportError)


def test_the_plumbing_is_behind_admin_and_its_old_names_warn(tmp_path):
    import pytest

    from engram.core.admin import MOVED

    assert not MOVED & set(vars(engram.Memory)), "plumbing is defined on Memory itself again"
    with engram.Memory(tmp_path / "m.db", embedder="hashing") as mem:
        saved = mem.remember("user:1", "Lives in Oslo since 2019.")
        assert mem.admin.update([saved.id], importance=0.9) == 1
        with pytest.warns(DeprecationWarning, match=r"Memory\.update is now Memory\.admin\.update"):
            assert mem.update([saved.id], importance=0.7) == 1
        assert mem.get(saved.id).importance == 0.7
        assert not hasattr(mem, "no_such_verb")  # any other missing name is an AttributeError as before

"""Arrays a kernel reads without counting references to them: ``borrowed(value)``.

numba counts references to every array it holds: each time an array is read out of a tuple,
given to a function (inlined or not) or sliced, it adds one with an atomic instruction and
takes it away later. In a loop that evaluates hands, the evaluator's four tables alone cost
eight atomic operations an evaluation, two thirds of its time (``perf``: 45% of showdown
mode's in ``NRT_incref``/``NRT_decref``; 31 ns an evaluation, 9.6 ns borrowed).

``borrowed`` gives the same value with every array in it (in tuples and named tuples, at any
depth) marked as owned by no one, so numba counts nothing for them. It is safe only for arrays
something else keeps alive for as long as the borrowed value is used: a kernel's own arguments
(its caller holds them until it returns). Never borrow an array the kernel made itself (numba
frees it after its last use by name) and never store a borrowed array where it outlives the call.

>>> import numpy as np
>>> from numba import njit
>>> @njit
... def total(pair):
...     a, b = borrowed(pair)
...     return a.sum() + b.sum()
>>> int(total((np.arange(4), np.ones(3, np.int64))))
9
"""

from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["borrowed"]


def _without_owner(context, builder, kind, value):
    """``value`` of numba type ``kind`` with its arrays' owner (meminfo) and parent cleared; other
    members counted once more, as a new value must be."""
    if isinstance(kind, types.Array):
        owned = context.make_array(kind)(context, builder, value=value)
        view = context.make_array(kind)(context, builder)
        for field in ("nitems", "itemsize", "data", "shape", "strides"):
            setattr(view, field, getattr(owned, field))
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()
    if isinstance(kind, types.BaseTuple):
        for i, member in enumerate(kind):
            part = _without_owner(context, builder, member, builder.extract_value(value, i))
            value = builder.insert_value(value, part, i)
        return value
    context.nrt.incref(builder, kind, value)
    return value


@intrinsic
def borrowed(typingctx, value):
    """The same value, its arrays read with no reference counting (see the module)."""

    def codegen(context, builder, signature, args):
        return _without_owner(context, builder, signature.args[0], args[0])

    return value(value), codegen

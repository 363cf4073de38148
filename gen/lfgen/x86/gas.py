"""AT&T (GNU as) text for PeachPy instructions, including what Debian's PeachPy cannot print.

PeachPy's own GAS printer fails on ZMM and mask registers (`'ZMMRegister' object has no
attribute 'format'`) and numbers labels by line. This printer formats every operand kind we
emit: general-purpose, XMM/YMM/ZMM and k registers, merge/zero masking (`%zmm1{%k1}{z}`),
memory operands with embedded broadcast (`(%rax){1to8}`) and masks, immediates and labels
(named `.L<function>_<label>`). Unknown operand kinds stop generation.
"""

from peachpy.x86_64.operand import MemoryOperand, MemoryAddress
from peachpy.x86_64.pseudo import Label, LABEL
from peachpy.x86_64.registers import Register, MaskedRegister
from peachpy.util import is_int


class GasError(Exception):
    pass


def label_name(function_name, label):
    return ".L%s_%s" % (function_name, str(label).replace(".", "_"))


def register(reg):
    if reg.physical_id is None:
        raise GasError("register %s is not bound" % reg)
    return "%" + str(reg)


def operand(op, function_name):
    if isinstance(op, bool):
        raise GasError("boolean operand")
    if is_int(op):
        return "$%d" % op
    if isinstance(op, MaskedRegister):
        text = register(op.register) + "{%s}" % register(op.mask.mask_register)
        if op.mask.is_zeroing:
            text += "{z}"
        return text
    if isinstance(op, Register):
        return register(op)
    if isinstance(op, MemoryOperand):
        addr = op.address
        if not isinstance(addr, MemoryAddress):
            raise GasError("unsupported memory operand %s (RIP-relative constants are not used)"
                           % op)
        inner = []
        if addr.base is not None:
            inner.append(register(addr.base))
        if addr.index is not None:
            if not inner:
                inner.append("")
            inner.append(register(addr.index))
            inner.append(str(addr.scale))
        text = "%d(%s)" % (addr.displacement, ",".join(inner)) if addr.displacement \
            else "(%s)" % ",".join(inner)
        if op.broadcast:
            text += "{1to%d}" % op.broadcast
        if op.mask is not None:
            text += "{%s}" % register(op.mask.mask_register)
            if op.mask.is_zeroing:
                text += "{z}"
        return text
    if isinstance(op, Label):
        return label_name(function_name, op)
    raise GasError("cannot print operand %r (%s)" % (op, type(op).__name__))


def instruction(insn, function_name):
    if isinstance(insn, LABEL):
        return label_name(function_name, insn.operands[0]) + ":"
    ops = ", ".join(operand(o, function_name) for o in reversed(insn.operands))
    return "\t%s\t%s" % (insn.gas_name, ops) if ops else "\t%s" % insn.gas_name

"""Extensions of Debian's python3-peachpy (0.0~git20211013), applied once on import.

PeachPy is used as it is packaged, never vendored; where it falls short for AVX-512 kernels it
is extended here, in this process only, and each extension says what it fixes:

  - k1-k7 allocatable in the SysV ABI (PeachPy lists no mask register);
  - physical mask registers rebuilt from liveness masks (an assertion otherwise);
  - write masks counted as reads, never writes (the allocator reused live masks);
  - zmm16-31 for functions that opt in (SYSV32 and a live-register limit of 32);
  - EVEX zero idioms (`VPXORQ z, z, z`) read nothing;
  - masked blends (`VPBLENDMQ z{k}, x, y`) write every lane: the destination is not read.

Its own encoder is not used for output (we print GAS text): tests/roundtrip.py compares the
two and knows three encoder bugs (disp8 of embedded broadcasts, compare-into-k masks, VEX for
xmm/ymm16-31).
"""

import copy as _copy

from peachpy.x86_64 import abi as pp_abi
from peachpy.x86_64.function import Function as PPFunction
from peachpy.x86_64.instructions import Instruction
from peachpy.x86_64.registers import (Register, KRegister, MaskedRegister as _MaskedRegister,
                                      XMMRegister as _XMMRegister,
                                      k1, k2, k3, k4, k5, k6, k7)

# Debian's PeachPy lists no mask register as allocatable in the SysV ABI, so a virtual
# KRegister fails with "No physical registers". k1-k7 are volatile in the SysV ABI (k0 cannot
# be a write mask); extend the ABI object in this process.
SYSV = _SYSV = pp_abi.system_v_x86_64_abi
for _k in (k1, k2, k3, k4, k5, k6, k7):
    if _k not in _SYSV.volatile_registers:
        _SYSV.volatile_registers.append(_k)

# Debian's PeachPy cannot rebuild a *physical* mask register from its liveness mask (0x40):
# Register._reconstruct asserts "Unknown register mask component: 40" once k registers are
# bound. Handle that component and leave the rest to PeachPy.
_pp_reconstruct = Register._reconstruct


def _reconstruct(internal_id, mask):
    extra = set()
    if internal_id >= 0 and mask & KRegister._mask:
        mask &= ~KRegister._mask
        extra.add(KRegister(physical_id=internal_id))
    return _pp_reconstruct(internal_id, mask) | extra


_reconstruct.limbforge = True
if not getattr(Register._reconstruct, "limbforge", False):
    Register._reconstruct = staticmethod(_reconstruct)

# Debian's PeachPy counts the write mask of a masked *register* destination (`zmm1{k1}`,
# `zmm1{k1}{z}`) as part of the destination: an output of every such instruction, and an
# input only when the destination is also read (VPMADD52LUQ, merge into VPADDQ's dst is not
# seen). So `VPORQ(z(k), x, y)` "defines" k, its liveness ends there and the allocator hands
# k's physical register to another mask that is live across it. A write mask is only read:
# count it as an input of the instruction and never as an output (mask bits only; the ids of
# virtual registers of different kinds may coincide); with merge masking the destination is
# read as well. The mask of a memory operand (`[rdi]{k7}`) is not an input for PeachPy
# either: counted here, so the allocator keeps other masks off a physical k register that is
# live up to a masked store (PeachPy does not bind registers there, so it must be physical).

_pp_in_masks = Instruction.input_registers_masks.fget
_pp_out_masks = Instruction.output_registers_masks.fget


def _write_masks(insn):
    return [op.mask.mask_register for op in insn.operands if isinstance(op, _MaskedRegister)]


# Zero idioms: `VPXORQ z, z, z` sets z to 0 whatever z held, but Debian's PeachPy marks only
# some VEX forms as having cancelling inputs, so for the EVEX forms z was live from the
# function's entry (an "exceeds physical constraints" failure, or a false dependency on
# whatever the allocator placed there before). Unmasked XOR/SUB forms with the same register
# twice read nothing.
ZERO_IDIOMS = ("VPXORQ", "VPXORD", "VPSUBQ", "VPSUBD")


def _zero_idiom(insn):
    ops = insn.operands
    return (insn.name in ZERO_IDIOMS and len(ops) == 3 and
            not any(isinstance(o, _MaskedRegister) for o in ops) and
            isinstance(ops[1], Register) and isinstance(ops[2], Register) and
            ops[1] == ops[2])


# Masked blends take each lane from one of their two sources (the mask selects which), so
# with merge masking their destination is still written whole, never read -- unlike every
# other merge-masked instruction.  Counting it as read kept a fresh destination live from the
# function's entry.
BLENDS = ("VPBLENDMQ", "VPBLENDMD", "VBLENDMPD", "VBLENDMPS")


def _in_masks(self):
    from peachpy.x86_64.operand import MemoryOperand
    if _zero_idiom(self):
        return {}
    masks = _pp_in_masks(self)
    regs = []
    for op in self.operands:
        if isinstance(op, _MaskedRegister):
            regs.append(op.mask.mask_register)
            if not op.mask.is_zeroing and self.name not in BLENDS:
                regs.append(op.register)      # merge masking keeps the other lanes: a read
        elif isinstance(op, MemoryOperand) and op.mask is not None:
            regs.append(op.mask.mask_register)    # `[rdi]{k7}`: PeachPy leaves it out
    if regs:
        masks = dict(masks)
        for r in regs:
            masks[r._internal_id] = masks.get(r._internal_id, 0) | r.mask
    return masks


def _out_masks(self):
    masks = _pp_out_masks(self)
    ks = _write_masks(self)
    if ks:
        masks = dict(masks)
        for k in ks:
            left = masks.get(k._internal_id, 0) & ~k.mask
            if left:
                masks[k._internal_id] = left
            else:
                masks.pop(k._internal_id, None)
    return masks


_in_masks.limbforge = True
if not getattr(Instruction.input_registers_masks.fget, "limbforge", False):
    Instruction.input_registers_masks = property(_in_masks)
    Instruction.output_registers_masks = property(_out_masks)

# zmm16-31 (opt-in, `Function(..., zmm32=True)`): Debian's PeachPy allocates vector registers
# from the ABI's lists, which name xmm0-15 only, and `_check_live_registers` stops at 16 live
# vector registers. A function that opts in finalizes against a copy of the SysV ABI with
# xmm16-31 added as volatile (they are call-clobbered in SysV; vzeroupper leaves them alone)
# and checks against 32. Opt-in only: an AVX2 kernel must never get a register that needs an
# EVEX encoding; for an opted-in function, features() adds avx512f (and avx512vl when an
# XMM/YMM register >= 16 appears) because PeachPy reports VEX forms by their VEX extension.

SYSV32 = _SYSV32 = _copy.copy(_SYSV)
_SYSV32.volatile_registers = list(_SYSV.volatile_registers) + [
    _XMMRegister(i) for i in range(16, 32)]
_pp_check_live = PPFunction._check_live_registers


def _check_live_registers(self):
    limit = getattr(self, "_lf_vector_limit", 16)
    if limit == 16:
        return _pp_check_live(self)
    from peachpy.x86_64.registers import GeneralPurposeRegister, MMXRegister, KRegister
    import peachpy as _pp
    budget = {GeneralPurposeRegister._kind: 15, MMXRegister._kind: 8,
              _XMMRegister._kind: limit, KRegister._kind: 8}
    for insn in self._instructions:
        left = dict(budget)
        for reg in insn.live_registers:
            left[reg.kind] -= 1
        if any(v < 0 for v in left.values()):
            raise _pp.RegisterAllocationError(
                "The number of live virtual registers exceeds physical constraints %s" % insn)


_check_live_registers.limbforge = True
if not getattr(PPFunction._check_live_registers, "limbforge", False):
    PPFunction._check_live_registers = _check_live_registers

"""Parameters in one flat tensor (torch; for the labs' hand-written trainers): one Adam over one
tensor, and each named parameter and its gradient as views into it."""
from __future__ import annotations

import math

import torch


def flat_parameters(shapes: dict[str, tuple]) -> tuple[torch.Tensor, dict, dict]:
    """(flat, params, grads): a zero flat tensor with its gradient, and a view of each into both,
    by name and shape, in the order given."""
    total = sum(math.prod(s) for s in shapes.values())
    flat = torch.zeros(total, requires_grad=True)
    flat.grad = torch.zeros(total)
    data, grad = flat.detach(), flat.grad
    params, grads, at = {}, {}, 0
    for k, shape in shapes.items():
        n = math.prod(shape)
        params[k], grads[k] = data[at:at + n].view(shape), grad[at:at + n].view(shape)
        at += n
    return flat, params, grads

"""PyTorch peer of bench/engine-ops.ts: the same conv / batch-norm / ReLU-backward / MLP-step work, 2 threads,
min and median ms, printed as JSON. Run by the TypeScript bench; standalone: /usr/bin/python3 bench/engine_ops_torch.py"""
import json, sys, time
import torch

torch.set_num_threads(2)
quick = "--quick" in sys.argv
rounds = 3 if quick else 10
N = 128

def measure(fn, reps=rounds):
    fn(); fn()
    t = []
    for _ in range(reps):
        t0 = time.perf_counter(); fn(); t.append((time.perf_counter() - t0) * 1000)
    t.sort()
    return {"min": round(t[0], 2), "median": round(t[len(t) // 2], 2)}

out = {"torch": torch.__version__}
stages = [(16, 32)] if quick else [(16, 32), (32, 16), (64, 8)]
conv = {}
for c, hw in stages:
    x = torch.randn(N, c, hw, hw); w = torch.randn(c, c, 3, 3); g = torch.randn(N, c, hw, hw)
    conv[f"{c}ch {hw}x{hw}"] = {
        "forward": measure(lambda: torch.nn.functional.conv2d(x, w, padding=1)),
        "dX": measure(lambda: torch.nn.grad.conv2d_input(x.shape, w, g, padding=1)),
        "dW": measure(lambda: torch.nn.grad.conv2d_weight(x, w.shape, g, padding=1)),
    }
out["conv3x3"] = conv
c, hw = stages[0]
x = torch.randn(N, c, hw, hw, requires_grad=True); gy = torch.randn(N, c, hw, hw)
gamma = torch.ones(c, requires_grad=True); beta = torch.zeros(c, requires_grad=True)
def bn():
    y = torch.nn.functional.batch_norm(x, None, None, gamma, beta, training=True)
    torch.autograd.grad(y, [x, gamma, beta], gy)
out["batchNormTrainForwardBackward"] = measure(bn)
y = torch.relu(torch.randn(N, c, hw, hw)); g = torch.randn(N, c, hw, hw)
out["reluBackward"] = measure(lambda: torch.ops.aten.threshold_backward(g, y, 0))
model = torch.nn.Sequential(torch.nn.Linear(784, 512), torch.nn.ReLU(), torch.nn.Linear(512, 512), torch.nn.ReLU(), torch.nn.Linear(512, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
xb = torch.randn(128, 784); yb = torch.arange(128) % 10
def step():
    opt.zero_grad(); loss = torch.nn.functional.cross_entropy(model(xb), yb); loss.backward(); opt.step()
out["mlpStep"] = measure(step, rounds * 3)
print(json.dumps(out))

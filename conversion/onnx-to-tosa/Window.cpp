//===- Window.cpp - Sliding-window geometry of Conv and Pool --------------===//
#include "conversion/onnx-to-tosa/Window.h"

using namespace mlir;

namespace onnx_tosa {

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

FailureOr<Window> computeWindow(NodeContext &ctx, ArrayRef<int64_t> input,
                                ArrayRef<int64_t> kernel, bool ceilMode) {
  size_t n = input.size();
  Window w;
  w.kernel.assign(kernel.begin(), kernel.end());
  w.strides = ctx.getInts("strides", Shape(n, 1));
  w.dilations = ctx.getInts("dilations", Shape(n, 1));
  Shape pads = ctx.getInts("pads", Shape(2 * n, 0));
  if (w.strides.size() != n || w.dilations.size() != n || pads.size() != 2 * n)
    return ctx.fail("strides, dilations and pads must have one entry per "
                    "spatial dimension (" +
                    Twine(n) + ")");
  for (size_t i = 0; i < n; ++i)
    if (w.strides[i] < 1 || w.dilations[i] < 1 || pads[i] < 0 ||
        pads[n + i] < 0 || w.kernel[i] < 1)
      return ctx.fail("kernel, strides and dilations must be positive and "
                      "pads non-negative");

  std::string autoPad = ctx.getString("auto_pad", "NOTSET");
  for (size_t i = 0; i < n; ++i) {
    int64_t in = input[i], s = w.strides[i];
    int64_t span = (w.kernel[i] - 1) * w.dilations[i] + 1;
    int64_t begin = pads[i], end = pads[n + i], out;
    if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
      // Output ceil(in / stride); the padding that takes is split evenly, the
      // odd one at the end (UPPER) or at the beginning (LOWER).
      out = ceilDiv(in, s);
      int64_t total = std::max<int64_t>(0, (out - 1) * s + span - in);
      begin = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
      end = total - begin;
    } else if (autoPad == "VALID" || autoPad == "NOTSET") {
      if (autoPad == "VALID")
        begin = end = 0;
      int64_t room = in + begin + end - span;
      if (room < 0)
        return ctx.fail("the kernel does not fit in the padded input along "
                        "spatial axis " +
                        Twine(i));
      out = (ceilMode ? ceilDiv(room, s) : room / s) + 1;
      // With ceil_mode, a window that would start in the trailing padding is
      // dropped (the spec's note; onnxruntime and PyTorch do the same).
      if (ceilMode && (out - 1) * s >= in + begin)
        --out;
    } else {
      return ctx.fail("auto_pad '" + autoPad + "' is not supported");
    }
    w.padBegin.push_back(begin);
    w.padEnd.push_back(end);
    w.output.push_back(out);
  }
  return w;
}

Shape fitPadsToTosa(TosaBuilder &t, const Window &w, Value &x) {
  Shape tosaPads;
  Shape kept(t.shapeOf(x));
  for (size_t i = 0; i < w.output.size(); ++i) {
    int64_t axis = i + 1; // channels-last: [N, spatial..., C]
    int64_t in = kept[axis];
    int64_t span = (w.kernel[i] - 1) * w.dilations[i] + 1;
    // What the last window reads past the input's end.
    int64_t end = (w.output[i] - 1) * w.strides[i] + span - in - w.padBegin[i];
    if (end < 0) {
      kept[axis] = in + end;
      end = 0;
    }
    tosaPads.push_back(w.padBegin[i]);
    tosaPads.push_back(end);
  }
  x = t.slice(x, Shape(kept.size(), 0), kept);
  return tosaPads;
}

void expandWindowTo2D(Window &w) {
  w.kernel.insert(w.kernel.begin(), 1);
  w.strides.insert(w.strides.begin(), 1);
  w.dilations.insert(w.dilations.begin(), 1);
  w.padBegin.insert(w.padBegin.begin(), 0);
  w.padEnd.insert(w.padEnd.begin(), 0);
  w.output.insert(w.output.begin(), 1);
}

} // namespace onnx_tosa

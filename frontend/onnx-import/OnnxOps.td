//===- OnnxOps.td - The onnx dialect -----------------------*- tablegen -*-===//
//
// ONNX is imported as ONE generic op, `onnx.node`, that carries the node's op
// type, domain, opset version and attributes, instead of hundreds of op
// classes: every opset of every op is representable, and legalization
// dispatches on (domain, op type, opset).
//
//===----------------------------------------------------------------------===//

#ifndef ONNX_TOSA_ONNX_OPS
#define ONNX_TOSA_ONNX_OPS

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Onnx_Dialect : Dialect {
  let name = "onnx";
  let summary = "ONNX graphs as generic nodes";
  let cppNamespace = "::onnx_tosa::onnx";
  let useDefaultTypePrinterParser = 1;
}

class Onnx_Type<string name, string typeMnemonic> :
    TypeDef<Onnx_Dialect, name> {
  let mnemonic = typeMnemonic;
}

def Onnx_UnknownType : Onnx_Type<"Unknown", "unknown"> {
  let summary = "a value whose type the model does not state";
  let description = [{
    ONNX models record types for graph inputs and outputs but often not for
    intermediate values. Such values get this type on import; legalization
    computes their real types.
  }];
}

class Onnx_Op<string mnemonic, list<Trait> traits = []> :
    Op<Onnx_Dialect, mnemonic, traits>;

def Onnx_NodeOp : Onnx_Op<"node"> {
  let summary = "one ONNX NodeProto";
  let description = [{
    `op_type`, `domain` ("" is the default domain ai.onnx), `opset` (the
    model's opset import for that domain) and `node_name` identify the node;
    `attrs` holds its attributes (INT → i64, FLOAT → f32, STRING → string,
    INTS → array<i64>, FLOATS → array<f32>, STRINGS → [strings],
    TENSOR → dense elements, GRAPH → the index of one of the node's regions).
    A missing optional input is a value produced by `onnx.none`.
  }];
  let arguments = (ins Variadic<AnyType>:$inputs, StrAttr:$op_type,
                   StrAttr:$domain, I64Attr:$opset, StrAttr:$node_name,
                   DictionaryAttr:$attrs);
  let results = (outs Variadic<AnyType>:$outputs);
  let regions = (region VariadicRegion<AnyRegion>:$subgraphs);
  let assemblyFormat = [{
    $op_type `(` $inputs `)` attr-dict `:` functional-type($inputs, $outputs)
    ($subgraphs^)?
  }];
}

def Onnx_NoneOp : Onnx_Op<"none", [Pure]> {
  let summary = "an absent optional input";
  let results = (outs NoneType:$result);
  let assemblyFormat = "attr-dict";
}

def Onnx_ConstantOp : Onnx_Op<"constant", [Pure]> {
  let summary = "a graph initializer";
  let arguments = (ins StrAttr:$name, ElementsAttr:$value);
  let results = (outs AnyTensor:$result);
  let assemblyFormat = "$name $value attr-dict `:` type($result)";
}

def Onnx_GraphReturnOp : Onnx_Op<"yield", [Terminator]> {
  let summary = "the outputs of a nested graph";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

#endif // ONNX_TOSA_ONNX_OPS

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

def Onnx_SequenceType : Onnx_Type<"Sequence", "sequence"> {
  let summary = "an ONNX sequence of tensors, of a length known at compile time";
  let description = [{
    Only produced by `onnx.sequence`, whose operands are the elements: the
    legalization resolves every sequence op at compile time (docs/sequences.md).
  }];
}

def Onnx_OptionalType : Onnx_Type<"Optional", "optional"> {
  let summary = "an ONNX optional, present or absent at compile time";
  let description = [{
    Only produced by `onnx.optional`, which holds the value (a tensor or an
    `!onnx.sequence`) or nothing.
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

def Onnx_SequenceOp : Onnx_Op<"sequence", [Pure]> {
  let summary = "a sequence as the list of its elements";
  let description = [{
    The legalization's representation of an ONNX sequence: its length and
    elements are known at compile time, each element a tensor value. The
    importer builds one for a sequence graph input (one function argument per
    element); the sequence handlers build and read them; none is left once
    the legalization is done (a sequence graph output becomes one result per
    element).
  }];
  let arguments = (ins Variadic<AnyType>:$elements);
  let results = (outs Onnx_SequenceType:$result);
  let assemblyFormat = "`(` $elements `)` attr-dict `:` functional-type($elements, $result)";
}

def Onnx_OptionalOp : Onnx_Op<"optional", [Pure]> {
  let summary = "an optional, present (one operand) or absent (none)";
  let arguments = (ins Optional<AnyType>:$value);
  let results = (outs Onnx_OptionalType:$result);
  let assemblyFormat = "`(` $value `)` attr-dict `:` functional-type($value, $result)";
}

#endif // ONNX_TOSA_ONNX_OPS

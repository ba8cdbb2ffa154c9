/**
 * The ONNX protobuf schema (onnx/onnx.proto, IR version 10, proto2) as a protobufjs JSON descriptor, so that any
 * producer's ModelProto (PyTorch, tf2onnx, Keras, our own emitter) can be decoded, edited and re-encoded by
 * `protobufjs` without a code-generation step. Field names are the proto names in camelCase (protobufjs'
 * convention); field numbers and types are those of onnx.proto. Every message and field of the format is listed,
 * so nothing a third-party model holds is dropped on a decode/encode round trip (protobufjs skips unknown fields).
 */
import type { INamespace } from 'protobufjs';

const f = (id: number, type: string) => ({ id, type });
const r = (id: number, type: string) => ({ id, type, rule: 'repeated' as const });
const stringMap = (id: number) => r(id, 'StringStringEntryProto');

export const ONNX_SCHEMA: INamespace = {
  nested: {
    onnx: {
      nested: {
        Version: {
          values: {
            _START_VERSION: 0, IR_VERSION_2017_10_10: 1, IR_VERSION_2017_10_30: 2, IR_VERSION_2017_11_3: 3,
            IR_VERSION_2019_1_22: 4, IR_VERSION_2019_3_18: 5, IR_VERSION_2019_9_19: 6, IR_VERSION_2020_5_8: 7,
            IR_VERSION_2021_7_30: 8, IR_VERSION_2023_5_5: 9, IR_VERSION_2024_3_25: 10, IR_VERSION: 11,
          },
        },
        AttributeProto: {
          fields: {
            name: f(1, 'string'), refAttrName: f(21, 'string'), docString: f(13, 'string'), type: f(20, 'AttributeType'),
            f: f(2, 'float'), i: f(3, 'int64'), s: f(4, 'bytes'), t: f(5, 'TensorProto'), g: f(6, 'GraphProto'),
            sparseTensor: f(22, 'SparseTensorProto'), tp: f(14, 'TypeProto'),
            floats: r(7, 'float'), ints: r(8, 'int64'), strings: r(9, 'bytes'), tensors: r(10, 'TensorProto'),
            graphs: r(11, 'GraphProto'), sparseTensors: r(23, 'SparseTensorProto'), typeProtos: r(15, 'TypeProto'),
          },
          nested: {
            AttributeType: {
              values: {
                UNDEFINED: 0, FLOAT: 1, INT: 2, STRING: 3, TENSOR: 4, GRAPH: 5, SPARSE_TENSOR: 11, TYPE_PROTO: 13,
                FLOATS: 6, INTS: 7, STRINGS: 8, TENSORS: 9, GRAPHS: 10, SPARSE_TENSORS: 12, TYPE_PROTOS: 14,
              },
            },
          },
        },
        ValueInfoProto: { fields: { name: f(1, 'string'), type: f(2, 'TypeProto'), docString: f(3, 'string'), metadataProps: stringMap(4) } },
        NodeProto: {
          fields: {
            input: r(1, 'string'), output: r(2, 'string'), name: f(3, 'string'), opType: f(4, 'string'), domain: f(7, 'string'),
            overload: f(8, 'string'), attribute: r(5, 'AttributeProto'), docString: f(6, 'string'), metadataProps: stringMap(9),
          },
        },
        TrainingInfoProto: {
          fields: {
            initialization: f(1, 'GraphProto'), algorithm: f(2, 'GraphProto'),
            initializationBinding: stringMap(3), updateBinding: stringMap(4),
          },
        },
        ModelProto: {
          fields: {
            irVersion: f(1, 'int64'), opsetImport: r(8, 'OperatorSetIdProto'), producerName: f(2, 'string'),
            producerVersion: f(3, 'string'), domain: f(4, 'string'), modelVersion: f(5, 'int64'), docString: f(6, 'string'),
            graph: f(7, 'GraphProto'), metadataProps: stringMap(14), trainingInfo: r(20, 'TrainingInfoProto'),
            functions: r(25, 'FunctionProto'),
          },
        },
        StringStringEntryProto: { fields: { key: f(1, 'string'), value: f(2, 'string') } },
        TensorAnnotation: { fields: { tensorName: f(1, 'string'), quantParameterTensorNames: stringMap(2) } },
        GraphProto: {
          fields: {
            node: r(1, 'NodeProto'), name: f(2, 'string'), initializer: r(5, 'TensorProto'),
            sparseInitializer: r(15, 'SparseTensorProto'), docString: f(10, 'string'), input: r(11, 'ValueInfoProto'),
            output: r(12, 'ValueInfoProto'), valueInfo: r(13, 'ValueInfoProto'),
            quantizationAnnotation: r(14, 'TensorAnnotation'), metadataProps: stringMap(16),
          },
        },
        TensorProto: {
          fields: {
            dims: r(1, 'int64'), dataType: f(2, 'int32'), segment: f(3, 'Segment'), floatData: r(4, 'float'),
            int32Data: r(5, 'int32'), stringData: r(6, 'bytes'), int64Data: r(7, 'int64'), name: f(8, 'string'),
            docString: f(12, 'string'), rawData: f(9, 'bytes'), externalData: stringMap(13),
            dataLocation: f(14, 'DataLocation'), doubleData: r(10, 'double'), uint64Data: r(11, 'uint64'),
            metadataProps: stringMap(16),
          },
          nested: {
            DataType: {
              values: {
                UNDEFINED: 0, FLOAT: 1, UINT8: 2, INT8: 3, UINT16: 4, INT16: 5, INT32: 6, INT64: 7, STRING: 8, BOOL: 9,
                FLOAT16: 10, DOUBLE: 11, UINT32: 12, UINT64: 13, COMPLEX64: 14, COMPLEX128: 15, BFLOAT16: 16,
                FLOAT8E4M3FN: 17, FLOAT8E4M3FNUZ: 18, FLOAT8E5M2: 19, FLOAT8E5M2FNUZ: 20, UINT4: 21, INT4: 22, FLOAT4E2M1: 23,
              },
            },
            Segment: { fields: { begin: f(1, 'int64'), end: f(2, 'int64') } },
            DataLocation: { values: { DEFAULT: 0, EXTERNAL: 1 } },
          },
        },
        SparseTensorProto: { fields: { values: f(1, 'TensorProto'), indices: f(2, 'TensorProto'), dims: r(3, 'int64') } },
        TensorShapeProto: {
          fields: { dim: r(1, 'Dimension') },
          nested: {
            Dimension: {
              oneofs: { value: { oneof: ['dimValue', 'dimParam'] } },
              fields: { dimValue: f(1, 'int64'), dimParam: f(2, 'string'), denotation: f(3, 'string') },
            },
          },
        },
        TypeProto: {
          oneofs: { value: { oneof: ['tensorType', 'sequenceType', 'mapType', 'optionalType', 'sparseTensorType', 'opaqueType'] } },
          fields: {
            tensorType: f(1, 'Tensor'), sequenceType: f(4, 'Sequence'), mapType: f(5, 'Map'), optionalType: f(9, 'Optional'),
            sparseTensorType: f(8, 'SparseTensor'), opaqueType: f(7, 'Opaque'), denotation: f(6, 'string'),
          },
          nested: {
            Tensor: { fields: { elemType: f(1, 'int32'), shape: f(2, 'TensorShapeProto') } },
            Sequence: { fields: { elemType: f(1, 'TypeProto') } },
            Map: { fields: { keyType: f(1, 'int32'), valueType: f(2, 'TypeProto') } },
            Optional: { fields: { elemType: f(1, 'TypeProto') } },
            SparseTensor: { fields: { elemType: f(1, 'int32'), shape: f(2, 'TensorShapeProto') } },
            Opaque: { fields: { domain: f(1, 'string'), name: f(2, 'string') } },
          },
        },
        OperatorSetIdProto: { fields: { domain: f(1, 'string'), version: f(2, 'int64') } },
        OperatorStatus: { values: { EXPERIMENTAL: 0, STABLE: 1 } },
        FunctionProto: {
          fields: {
            name: f(1, 'string'), input: r(4, 'string'), output: r(5, 'string'), attribute: r(6, 'string'),
            attributeProto: r(11, 'AttributeProto'), node: r(7, 'NodeProto'), docString: f(8, 'string'),
            opsetImport: r(9, 'OperatorSetIdProto'), domain: f(10, 'string'), overload: f(13, 'string'),
            valueInfo: r(12, 'ValueInfoProto'), metadataProps: stringMap(14),
          },
        },
      },
    },
  },
};

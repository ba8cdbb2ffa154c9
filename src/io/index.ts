/**
 * File formats: NumPy .npy (read whole or streamed in row chunks, written atomically), numeric CSV and JSON
 * arrays, and dispatch by extension for prediction matrices and labels.
 */
export {
  readNpy,
  readNpyHeader,
  readNpyRows,
  writeNpy,
  createNpyWriter,
  npyHeaderBytes,
  NPY_MAX_ELEMENTS,
  type NpyArray,
  type NpyData,
  type NpyDtype,
  type NpyHeader,
  type NpyRowsOptions,
  type NpyWritable,
  type NpyWriteOptions,
  type NpyWriter,
} from './npy.js';
export { parseNumericCsv, parseLabelsCsv, parseNumberCell, type NumericTable } from './csv.js';
export { parseMatrixJson, parseLabelsJson, type MatrixKey } from './json-arrays.js';
export {
  fileFormat,
  openLabelsSource,
  openMatrixSource,
  readLabelsFile,
  readMatrixFile,
  type FileFormat,
  type LabelsReadOptions,
  type LabelsSource,
  type MatrixReadOptions,
  type MatrixSource,
} from './read-predictions.js';
export { writeMatrixFile, type MatrixWriteOptions } from './write-predictions.js';
export { requirePredictionShape } from './validate.js';
export { openInput, readInputText, type InputContext } from './input-file.js';

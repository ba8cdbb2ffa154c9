/**
 * The flags that feed an ONNX classifier (`calib predict`, `calib eval --model`): the model (`--model FILE`, or
 * `--run DIR [--checkpoint last|best]` for a `calib train` run, exported in memory), and its samples
 * (`--inputs X.npy`, `--dataset NAME [--data-opt k=v] [--split train|val|test]`, or `--images DIR`), with the
 * preprocessing options. Resolves them into the model bytes, the samples in the model's layout and the labels
 * where the source has them.
 */
import { readFile } from 'node:fs/promises';
import { DATASET_NAMES, loadDataset, type DatasetName } from '../data/load-dataset.js';
import type { Dataset, ImageDataset } from '../data/dataset.js';
import { DEFAULT_MAX_IMAGE_PIXELS } from '../data/formats/decode-image.js';
import { readImageFolder } from '../deploy/image-folder.js';
import { decodeOnnx, readOnnxFile, type OnnxModelProto } from '../deploy/onnx-file.js';
import { inferLayout, modelSignature, selectInput, describeTensor } from '../deploy/model-signature.js';
import { nchwToNhwc, normalizeChannels } from '../deploy/preprocess.js';
import type { Samples } from '../deploy/run-classifier.js';
import { readNpy } from '../io/npy.js';
import { loadCheckpoint } from '../train/artefacts/checkpoint.js';
import { exportOnnx } from '../train/artefacts/export-onnx.js';
import { resolveTrainConfig } from '../train/train-config.js';
import { runSplits } from '../train/run/trainer-data.js';
import { createRunModel } from '../train/run/trainer-model.js';
import { runPaths } from '../train/artefacts/run-directory.js';
import { invalidArgument } from '../util/errors.js';
import { parseKeyValues, UsageError } from './args.js';
import { flag } from './flag.js';
import { described, number, optional, string } from '../util/schema.js';

export const MODEL_INPUT_FLAGS = {
  model: flag(described(optional(string()), 'ONNX classifier (any producer)'), { valueName: 'FILE' }),
  run: flag(described(optional(string()), 'a calib train run directory instead of --model (its dataset by default)'), { valueName: 'DIR' }),
  checkpoint: flag(optional(string(['last', 'best']), 'best', 'checkpoint of --run')),
  inputs: flag(described(optional(string()), "samples as .npy [N, ...] in the model's layout, already preprocessed"), { valueName: 'X.npy' }),
  dataset: flag(described(optional(string(DATASET_NAMES)), 'a built-in dataset (images in [0, 1], NCHW; then --mean/--std/--layout)')),
  'data-opt': flag(described(string(), 'dataset loader option (as calib train)'), { repeatable: true, valueName: 'KEY=VALUE' }),
  split: flag(optional(string(['train', 'val', 'test']), 'test', "split of --dataset / --run (val = calib train's default 10 % hold-out, seed 0)")),
  images: flag(described(optional(string()), 'folder of PNG/JPEG images (one subfolder per class gives labels)'), { valueName: 'DIR' }),
  'max-image-pixels': flag(optional(number({ integer: true, min: 1 }), DEFAULT_MAX_IMAGE_PIXELS, 'refuse --images files whose header gives more pixels (width × height, checked before decoding)')),
  size: flag(described(optional(string()), "resize --images to H×W (default: the model's input size)"), { valueName: 'HxW' }),
  mean: flag(described(optional(string()), 'per-channel mean subtracted (default 0)'), { valueName: 'M[,M,M]' }),
  std: flag(described(optional(string()), 'per-channel std divided by (default 1)'), { valueName: 'S[,S,S]' }),
  layout: flag(described(optional(string(['nchw', 'nhwc'])), "image layout the model takes (default: read from the model's input shape)")),
  'input-name': flag(described(optional(string()), 'model input to feed (when it has several)'), { valueName: 'NAME' }),
  'output-name': flag(described(optional(string()), 'model output to read (when it has several [N, C] outputs)'), { valueName: 'NAME' }),
  batch: flag(optional(number({ integer: true }), 256, 'batch size (a model with a fixed batch uses its own)')),
  threads: flag(optional(number({ integer: true }), 2, 'ONNX Runtime threads')),
} as const;

export interface ModelInputFlags {
  model?: string | undefined;
  run?: string | undefined;
  checkpoint: string;
  inputs?: string | undefined;
  dataset?: string | undefined;
  'data-opt': string[];
  split: string;
  images?: string | undefined;
  'max-image-pixels': number;
  size?: string | undefined;
  mean?: string | undefined;
  std?: string | undefined;
  layout?: string | undefined;
  'input-name'?: string | undefined;
}

export interface ResolvedModelInputs {
  readonly bytes: Uint8Array;
  readonly model: OnnxModelProto;
  /** What the model is, for messages. */
  readonly modelSource: string;
  readonly samples: Samples;
  readonly samplesArg: string;
  readonly labels: Int32Array | null;
}

function numberList(flag: string, text: string | undefined, fallback: number): number[] {
  if (text === undefined) return [fallback];
  const values = text.split(',').map((s) => Number(s.trim()));
  if (values.length === 0 || values.some((v) => !Number.isFinite(v))) invalidArgument(flag, 'comma-separated numbers', JSON.stringify(text));
  return values;
}

/** Load the model of `--model` or `--run`. */
async function loadModel(flags: ModelInputFlags): Promise<{ bytes: Uint8Array; model: OnnxModelProto; source: string; runData?: { validation: Dataset; test: Dataset; train: Dataset } }> {
  if ((flags.model === undefined) === (flags.run === undefined)) throw new UsageError('give exactly one of --model FILE or --run DIR');
  if (flags.model !== undefined) {
    const { bytes, model } = await readOnnxFile(flags.model, '--model');
    return { bytes, model, source: flags.model };
  }
  const paths = runPaths(flags.run!);
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(paths.config, 'utf8'));
  } catch (error) {
    invalidArgument('--run', 'a calib train run directory (with config.json)', `${JSON.stringify(flags.run)} (${(error as Error).message.split('\n')[0]})`);
  }
  const config = resolveTrainConfig({ ...(raw as object), out: flags.run }, paths.config);
  const splits = await loadDataset(config.dataset as DatasetName, config.datasetOptions as never);
  const data = runSplits(splits, config, { owned: true });
  const net = createRunModel(config.model, config.modelOptions, data.train);
  const file = flags.checkpoint === 'last' ? paths.lastCheckpoint : paths.bestCheckpoint;
  let state;
  try {
    ({ state } = await loadCheckpoint(file, { model: net }));
  } catch (error) {
    invalidArgument('--checkpoint', `a readable checkpoint in ${JSON.stringify(flags.run)}`, `${JSON.stringify(file)} (${(error as Error).message.split('\n')[0]})`);
  }
  const bytes = exportOnnx(net, state);
  return { bytes, model: decodeOnnx(bytes, '--run'), source: `${flags.run} (${flags.checkpoint} checkpoint)`, runData: data };
}

/** Images of a dataset split as NCHW samples. */
function datasetImages(d: Dataset, flag: string): ImageDataset {
  if (d.kind !== 'image') invalidArgument(flag, 'an image dataset (text datasets are token ids: use --inputs)', d.name);
  return d;
}

/** Resolve the model and sample flags. */
export async function resolveModelInputs(flags: ModelInputFlags): Promise<ResolvedModelInputs> {
  const sources = [flags.inputs, flags.dataset, flags.images].filter((s) => s !== undefined).length;
  if (sources > 1) throw new UsageError('give only one of --inputs, --dataset or --images');
  if (sources === 0 && flags.run === undefined) throw new UsageError('give the samples: --inputs X.npy, --dataset NAME or --images DIR');
  const loaded = await loadModel(flags);
  const input = selectInput(modelSignature(loaded.model), flags['input-name'], '--input-name', flags.model !== undefined ? '--model' : '--run');
  const layout = (flags.layout as 'nchw' | 'nhwc' | undefined) ?? inferLayout(input) ?? 'nchw';
  if (flags.inputs !== undefined) {
    const npy = await readNpy(flags.inputs, '--inputs');
    if (npy.shape.length < 2) invalidArgument('--inputs', 'an array of shape [N, ...] (N samples)', `shape [${npy.shape.join(', ')}]`);
    const data = npy.data instanceof Float32Array ? npy.data : Float32Array.from(npy.data as ArrayLike<number>);
    return {
      bytes: loaded.bytes,
      model: loaded.model,
      modelSource: loaded.source,
      samplesArg: '--inputs',
      labels: null,
      samples: { data, count: npy.shape[0]!, sampleShape: npy.shape.slice(1) },
    };
  }
  let images: Float32Array;
  let count: number;
  let shape: [number, number, number];
  let labels: Int32Array | null;
  let samplesArg: string;
  if (flags.images !== undefined) {
    samplesArg = '--images';
    const dims = input.dims ?? [];
    const channelDim = layout === 'nhwc' ? dims[3] : dims[1];
    const channels = typeof channelDim === 'number' ? channelDim : 3;
    let height: number;
    let width: number;
    if (flags.size !== undefined) {
      const m = /^(\d+)x(\d+)$/.exec(flags.size);
      if (!m) invalidArgument('--size', 'HxW, e.g. 224x224', JSON.stringify(flags.size));
      height = Number(m[1]);
      width = Number(m[2]);
    } else {
      const [h, w] = layout === 'nhwc' ? [dims[1], dims[2]] : [dims[2], dims[3]];
      if (typeof h !== 'number' || typeof w !== 'number') invalidArgument('--size', `HxW (the model's input ${describeTensor(input)} does not fix the image size)`, 'nothing');
      height = h;
      width = w;
    }
    const maxPixels = flags['max-image-pixels'];
    const folder = await readImageFolder(flags.images, { channels, height, width }, '--images', { maxPixels });
    images = folder.images;
    count = folder.count;
    shape = [channels, height, width];
    labels = folder.labels;
  } else {
    samplesArg = flags.dataset !== undefined ? '--dataset' : '--run';
    let split: Dataset;
    if (flags.dataset !== undefined) {
      const options = parseKeyValues('--data-opt', flags['data-opt']);
      const config = resolveTrainConfig({ dataset: flags.dataset, datasetOptions: options, out: '-' }, '--dataset');
      const splits = await loadDataset(config.dataset as DatasetName, config.datasetOptions as never);
      const data = runSplits(splits, config, { owned: true });
      split = flags.split === 'train' ? data.train : flags.split === 'val' ? data.validation : data.test;
    } else {
      const data = loaded.runData!;
      split = flags.split === 'train' ? data.train : flags.split === 'val' ? data.validation : data.test;
    }
    const d = datasetImages(split, samplesArg);
    images = Float32Array.from(d.images);
    count = d.labels.length;
    shape = [...d.shape];
    labels = d.labels;
  }
  const [channels, height, width] = shape;
  if (flags.mean !== undefined || flags.std !== undefined) {
    normalizeChannels(images, channels, height * width, numberList('--mean', flags.mean, 0), numberList('--std', flags.std, 1));
  }
  const data = layout === 'nhwc' ? nchwToNhwc(images, count, channels, height, width) : images;
  const sampleShape = input.dims && input.dims.length === 2 ? [channels * height * width] : layout === 'nhwc' ? [height, width, channels] : [channels, height, width];
  return { bytes: loaded.bytes, model: loaded.model, modelSource: loaded.source, samplesArg, labels, samples: { data, count, sampleShape } };
}

import { open, readFile, type FileHandle } from 'node:fs/promises';
import { invalidArgument } from '../util/errors.js';

/**
 * Opening input files with errors users can act on: a missing, unreadable or directory path becomes an
 * `InvalidArgumentError` naming the argument (e.g. `--logits`) and the path, instead of a raw `ENOENT`.
 */

/** Which argument a file came from, and its path: used in every error message of the readers. */
export interface InputContext {
  /** The argument the file was given as, e.g. `--logits` (or a parameter name for library callers). */
  readonly argName: string;
  readonly path: string;
}

/** `'path'` quoted for messages. */
export function quotePath(path: string): string {
  return JSON.stringify(path);
}

function fileProblem(ctx: InputContext, error: unknown): never {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason =
    code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : ((error as Error | undefined)?.message ?? String(error));
  return invalidArgument(ctx.argName, 'a readable file', `${quotePath(ctx.path)} (${reason})`);
}

/** Open `ctx.path` for reading, translating file-system errors into `InvalidArgumentError`. */
export async function openInput(ctx: InputContext): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(ctx.path, 'r');
  } catch (error) {
    fileProblem(ctx, error);
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) {
      const error = Object.assign(new Error('is a directory'), { code: 'EISDIR' });
      throw error;
    }
  } catch (error) {
    await handle.close();
    fileProblem(ctx, error);
  }
  return handle;
}

/** Read `ctx.path` as UTF-8 text (a leading byte-order mark is dropped). */
export async function readInputText(ctx: InputContext): Promise<string> {
  let text: string;
  try {
    text = await readFile(ctx.path, 'utf8');
  } catch (error) {
    fileProblem(ctx, error);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

let stdinBytes: Promise<Uint8Array> | null = null;

/**
 * All of standard input as bytes (read once per process and shared: `-` may stand for one input only, which
 * the callers check).
 */
export function readStdinBytes(): Promise<Uint8Array> {
  stdinBytes ??= (async () => {
    const parts: Buffer[] = [];
    for await (const chunk of process.stdin) parts.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
    const all = Buffer.concat(parts);
    return new Uint8Array(all.buffer, all.byteOffset, all.byteLength);
  })();
  return stdinBytes;
}

/** A whole input file as bytes (`-`: standard input), with file-system errors naming the argument. */
export async function readInputBytes(ctx: InputContext): Promise<Uint8Array> {
  if (ctx.path === '-') return readStdinBytes();
  try {
    const b = await readFile(ctx.path);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  } catch (error) {
    return fileProblem(ctx, error);
  }
}

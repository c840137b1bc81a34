// The streamed exports' plumbing, shared by the analytics and the YouTube exports: text chunks as an HTTP byte
// stream with backpressure, and a JSON document whose last member is an array written a slice at a time.
import { Readable } from 'node:stream';

/** The HTTP stream buffers up to about this much text before it stops asking the database for more. */
const STREAM_HIGH_WATER_MARK = 64 * 1024;

/**
 * A byte stream that pulls the next chunk only when the HTTP response has taken the previous text (backpressure):
 * memory stays at about one slice whatever the export's size. A reader that goes away ends the generator, and with
 * it the queries.
 */
export const textStream = (chunks: AsyncIterable<string>) =>
  Readable.from(
    (async function* () {
      for await (const chunk of chunks) yield Buffer.from(chunk, 'utf8');
    })(),
    { objectMode: false, highWaterMark: STREAM_HIGH_WATER_MARK },
  );

/**
 * A JSON document streamed slice by slice: `head` opens it and ends with the `[` of its last member, each slice's
 * items follow (as `toJson` shapes them), and the array and the document are closed at the end.
 */
export async function* jsonDocumentChunks<T>(head: string, slices: AsyncIterable<readonly T[]>, toJson: (item: T) => unknown): AsyncGenerator<string> {
  yield head;
  let first = true;
  for await (const slice of slices) {
    const text = slice.map((item) => JSON.stringify(toJson(item))).join(',\n');
    yield first ? `\n${text}` : `,\n${text}`;
    first = false;
  }
  yield '\n]}\n';
}

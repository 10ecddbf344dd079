// Content on demand: the text of one segment, asked for when the user clicks it.
import { imagePreview } from '../image-preview.ts';
import { QueryError, requireSession, type WorkerSession } from '../session.ts';

export interface SegmentTextParams {
  request: number;
  segment: number;
}

export interface SegmentTextAnswer {
  /** The text tokenizers count; empty for media. */
  text: string;
  /** The block's JSON as sent, without its cache marker. */
  wire: string;
  /** Media description when the segment is an image, document or audio block. */
  media: string | null;
  /** A data: URL of an inline raster image, for a preview; null otherwise. */
  image: string | null;
}

export function segmentText(session: WorkerSession | null, params: unknown): SegmentTextAnswer {
  const { requests } = requireSession(session);
  const { request, segment } = readParams(params);
  const parsed = requests[request];
  if (parsed === undefined) throw new QueryError(`No request ${request} (the input has ${requests.length}).`);
  const found = parsed.segments[segment];
  if (found === undefined) {
    throw new QueryError(`Request ${request} has no segment ${segment} (it has ${parsed.segments.length}).`);
  }
  const media = found.media;
  return {
    text: found.text,
    wire: found.wire,
    image: media?.kind === 'image' && media.source === 'base64' ? imagePreview(found.wire) : null,
    media:
      media === null
        ? null
        : [media.kind, media.mediaType ?? 'unknown type', media.source, media.dataBytes > 0 ? `${media.dataBytes} bytes` : '']
            .concat(media.width !== null && media.height !== null ? [`${media.width}×${media.height}`] : [])
            .filter((part) => part !== '')
            .join(', '),
  };
}

function readParams(params: unknown): SegmentTextParams {
  const record = (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>;
  const request = record['request'];
  const segment = record['segment'];
  if (!Number.isInteger(request) || !Number.isInteger(segment)) {
    throw new QueryError('segment-text needs integer `request` and `segment` params.');
  }
  return { request: request as number, segment: segment as number };
}

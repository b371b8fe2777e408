// A small multipart/form-data parser for the audio uploads (RFC 7578). It works on the whole body
// in memory, which is fine for the 25 MB the service accepts.

/** An uploaded file part. */
export interface FormFile {
  filename: string;
  contentType: string;
  data: Buffer;
}

/** Text fields and file fields of one form. */
export interface MultipartForm {
  fields: Record<string, string>;
  files: Record<string, FormFile>;
}

/** The boundary of a multipart/form-data content type, or undefined for any other type. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (contentType === undefined || !/^multipart\/form-data\b/i.test(contentType)) return undefined;
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

function headerParam(header: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|;)\\s*${name}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(header) ?? new RegExp(`(?:^|;)\\s*${name}=([^;]*)`, 'i').exec(header);
  return match?.[1]?.replace(/\\(.)/g, '$1').trim();
}

/** Parses a form body; returns undefined when the body does not follow the boundary structure. */
export function parseMultipart(body: Buffer, boundary: string): MultipartForm | undefined {
  const form: MultipartForm = { fields: {}, files: {} };
  const delimiter = Buffer.from(`--${boundary}`);
  let at = body.indexOf(delimiter);
  if (at < 0) return undefined;
  for (;;) {
    at += delimiter.length;
    // "--" after a delimiter closes the form.
    if (body[at] === 0x2d && body[at + 1] === 0x2d) return form;
    if (body[at] === 0x0d && body[at + 1] === 0x0a) at += 2;
    const headerEnd = body.indexOf('\r\n\r\n', at);
    if (headerEnd < 0) return undefined;
    const headers = body.subarray(at, headerEnd).toString('utf8').split('\r\n');
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headerEnd + 4);
    if (next < 0) return undefined;
    const content = body.subarray(headerEnd + 4, next);
    let disposition = '';
    let contentType = 'application/octet-stream';
    for (const line of headers) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === 'content-disposition') disposition = value;
      if (name === 'content-type') contentType = value;
    }
    const name = headerParam(disposition, 'name');
    const filename = headerParam(disposition, 'filename');
    if (name !== undefined) {
      if (filename !== undefined) form.files[name] = { filename, contentType, data: content };
      else form.fields[name] = content.toString('utf8');
    }
    at = next + 2;
  }
}

/** The recorded form of a multipart body: fields as text, files as {filename, contentType, size}. */
export function describeForm(form: MultipartForm): Record<string, unknown> {
  const out: Record<string, unknown> = { ...form.fields };
  for (const [name, file] of Object.entries(form.files)) out[name] = { filename: file.filename, contentType: file.contentType, size: file.data.length };
  return out;
}

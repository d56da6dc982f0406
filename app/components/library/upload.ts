/** What the admin API answers a paper's save. */
export type UploadAnswer = {
  status: number;
  body: { status?: string; message?: string; errors?: Record<string, string[]>; paper?: { id: number; name: string } };
};

/**
 * Posts a form to the JSON API with XMLHttpRequest, the one browser API that reports the
 * upload's progress (fetch does not). `onProgress` gets 0–100 as the body goes out.
 * Resolves with the answer whatever its status; rejects only when nothing came back.
 */
export function postWithProgress(
  url: string,
  body: FormData,
  onProgress: (percent: number) => void,
): { done: Promise<UploadAnswer>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const done = new Promise<UploadAnswer>((resolve, reject) => {
    xhr.open("POST", url);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.upload.onload = () => onProgress(100);
    xhr.onload = () => {
      let parsed: UploadAnswer["body"] = {};
      try {
        parsed = JSON.parse(xhr.responseText) as UploadAnswer["body"];
      } catch {
        parsed = {};
      }
      resolve({ status: xhr.status, body: parsed });
    };
    xhr.onerror = () => reject(new Error("The upload failed: the connection was lost. Please try again."));
    xhr.onabort = () => reject(new Error("The upload was cancelled."));
    xhr.send(body);
  });
  return { done, abort: () => xhr.abort() };
}

/** The field errors of a refused save: 422 beside each field, 413 and 415 at the file field. */
export function uploadErrors(answer: UploadAnswer): { errors: Record<string, string[]>; message: string | null } {
  const { status, body } = answer;
  if (status === 413) {
    return {
      errors: { uploaded_file: [body.errors?.uploaded_file?.[0] ?? "The file is too large to upload."] },
      message: null,
    };
  }
  if (status === 415) {
    return {
      errors: {
        uploaded_file: [body.errors?.uploaded_file?.[0] ?? body.message ?? "This type of file is not accepted."],
      },
      message: null,
    };
  }
  if (body.errors && Object.keys(body.errors).length > 0) return { errors: body.errors, message: null };
  return { errors: {}, message: body.message ?? `The paper could not be saved (error ${status}).` };
}

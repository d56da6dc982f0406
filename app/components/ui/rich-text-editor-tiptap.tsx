import Image from "@tiptap/extension-image";
import { EditorContent, useEditor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import {
  Bold,
  Captions,
  Heading2,
  Heading3,
  ImagePlus,
  Italic,
  Link2,
  List,
  ListOrdered,
  Quote,
  Redo2,
  Undo2,
  Unlink,
} from "lucide-react";
import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { ALT_REQUIRED, describedImage, IMAGE_ALT_MAX } from "../../../lib/image-text";
import { IMAGE_ACCEPT } from "../../../lib/uploads";

type UploadAnswer = {
  status?: string;
  message?: string;
  errors?: Record<string, string[]>;
  image?: { url: string; width: number; height: number };
};

/** Sends an image to the admin API (same-origin cookie session) and answers where it is stored. */
async function uploadImage(file: File): Promise<NonNullable<UploadAnswer["image"]>> {
  const body = new FormData();
  body.append("image", file);
  const response = await fetch("/api/dashboard/images", {
    method: "POST",
    body,
    headers: { Accept: "application/json" },
    credentials: "same-origin",
  });
  const answer = (await response.json().catch(() => ({}))) as UploadAnswer;
  if (response.ok && answer.status === "success" && answer.image) return answer.image;
  if (response.status === 413) throw new Error("The image is too large.");
  throw new Error(answer.errors?.image?.[0] ?? answer.message ?? "The image could not be uploaded.");
}

/**
 * TipTap inside the admin's rich-text editor (rich-text-editor.tsx loads it in the browser only). The
 * form field is a hidden input kept in sync with the editor; `fallback` (a placeholder) stands
 * in until the editor is ready.
 */
export default function TiptapEditor({
  name,
  labelId,
  initialHtml,
  error,
  compact,
  fallback,
}: {
  name: string;
  labelId: string;
  initialHtml: string;
  error?: string;
  compact: boolean;
  fallback: ReactNode;
}) {
  const [html, setHtml] = useState(initialHtml);
  const [ready, setReady] = useState(false);
  const [upload, setUpload] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const fileInput = useRef<HTMLInputElement>(null);
  /** The image whose text is being asked for: one just uploaded (to insert) or the selected one (to change). */
  const [describing, setDescribing] = useState<DescribedImage | null>(null);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3, 4] },
        codeBlock: false,
        link: {
          openOnClick: false,
          autolink: true,
          protocols: ["mailto", "tel"],
          HTMLAttributes: { rel: null, target: null },
        },
      }),
      Image.configure({ inline: false }),
    ],
    content: initialHtml,
    immediatelyRender: false,
    editorProps: {
      attributes: {
        class: `rich-text ${compact ? "min-h-40" : "min-h-80"} px-4 py-3 focus:outline-none`,
        role: "textbox",
        "aria-multiline": "true",
        "aria-labelledby": labelId,
        ...(error ? { "aria-invalid": "true", "aria-describedby": `${name}-error` } : {}),
      },
    },
    onUpdate: ({ editor: current }) => setHtml(current.getHTML()),
    onCreate: () => setReady(true),
  });

  useEffect(() => () => editor?.destroy(), [editor]);

  const button = (title: string, icon: ReactNode, run: () => void, active = false) => (
    <button
      type="button"
      title={title}
      aria-label={title}
      aria-pressed={active}
      onClick={run}
      className={`rounded p-1.5 ${active ? "bg-navy-900 text-white" : "text-slate-700 hover:bg-slate-100"}`}
    >
      {icon}
    </button>
  );

  function setLink() {
    if (!editor) return;
    const previous = editor.getAttributes("link").href as string | undefined;
    const url = window.prompt("Link address (https://…, mailto: or a path such as /history)", previous ?? "https://");
    if (url === null) return;
    if (url.trim() === "") editor.chain().focus().extendMarkRange("link").unsetLink().run();
    else editor.chain().focus().extendMarkRange("link").setLink({ href: url.trim() }).run();
  }

  async function insertImage(file: File | undefined) {
    if (!editor || !file) return;
    setUpload({ busy: true, error: null });
    try {
      const image = await uploadImage(file);
      setUpload({ busy: false, error: null });
      // Inserted once the admin has said what it shows, or that it is decorative (decision 0041).
      setDescribing({ ...image, alt: "", decorative: false, inserting: true });
    } catch (failure) {
      setUpload({
        busy: false,
        error: failure instanceof Error ? failure.message : "The image could not be uploaded.",
      });
    }
  }

  /** The selected image's text, to change it. */
  function describeSelected() {
    if (!editor?.isActive("image")) return;
    const attributes = editor.getAttributes("image") as { src: string; alt?: string | null };
    const alt = attributes.alt ?? "";
    setDescribing({ url: attributes.src, alt, decorative: alt === "", inserting: false });
  }

  function applyDescription(text: { alt: string; decorative: boolean }) {
    if (!editor || !describing) return;
    if (describing.inserting) {
      const { url, width, height } = describing;
      editor.chain().focus().setImage({ src: url, alt: text.alt, width, height }).run();
    } else editor.chain().focus().updateAttributes("image", { alt: text.alt }).run();
    setDescribing(null);
  }

  const icon = "h-4 w-4";
  if (!ready || !editor) return fallback;
  return (
    <div className={`rounded-md border bg-white ${error ? "border-red-600" : "border-slate-300"}`}>
      <div role="toolbar" aria-label="Formatting" className="flex flex-wrap gap-0.5 border-b border-slate-200 p-1.5">
        {button(
          "Heading 2",
          <Heading2 className={icon} />,
          () => editor.chain().focus().toggleHeading({ level: 2 }).run(),
          editor.isActive("heading", { level: 2 }),
        )}
        {button(
          "Heading 3",
          <Heading3 className={icon} />,
          () => editor.chain().focus().toggleHeading({ level: 3 }).run(),
          editor.isActive("heading", { level: 3 }),
        )}
        {button(
          "Bold",
          <Bold className={icon} />,
          () => editor.chain().focus().toggleBold().run(),
          editor.isActive("bold"),
        )}
        {button(
          "Italic",
          <Italic className={icon} />,
          () => editor.chain().focus().toggleItalic().run(),
          editor.isActive("italic"),
        )}
        {button(
          "Bulleted list",
          <List className={icon} />,
          () => editor.chain().focus().toggleBulletList().run(),
          editor.isActive("bulletList"),
        )}
        {button(
          "Numbered list",
          <ListOrdered className={icon} />,
          () => editor.chain().focus().toggleOrderedList().run(),
          editor.isActive("orderedList"),
        )}
        {button(
          "Quote",
          <Quote className={icon} />,
          () => editor.chain().focus().toggleBlockquote().run(),
          editor.isActive("blockquote"),
        )}
        {button("Link", <Link2 className={icon} />, setLink, editor.isActive("link"))}
        {button(upload.busy ? "Uploading the image…" : "Insert image", <ImagePlus className={icon} />, () =>
          fileInput.current?.click(),
        )}
        <input
          ref={fileInput}
          type="file"
          accept={IMAGE_ACCEPT}
          className="hidden"
          tabIndex={-1}
          aria-label="Image to insert"
          data-testid="editor-image-file"
          onChange={(event) => {
            void insertImage(event.currentTarget.files?.[0]);
            event.currentTarget.value = "";
          }}
        />
        {editor.isActive("image") ? button("Image's alt text", <Captions className={icon} />, describeSelected) : null}
        {button("Remove link", <Unlink className={icon} />, () => editor.chain().focus().unsetLink().run())}
        {button("Undo", <Undo2 className={icon} />, () => editor.chain().focus().undo().run())}
        {button("Redo", <Redo2 className={icon} />, () => editor.chain().focus().redo().run())}
      </div>
      {upload.error ? (
        <p role="alert" className="border-b border-slate-200 bg-red-50 px-4 py-2 text-sm text-red-800">
          {upload.error}
        </p>
      ) : null}
      {describing ? (
        <ImageTextPanel
          key={describing.url}
          id={`${name}-image`}
          image={describing}
          onDone={applyDescription}
          onCancel={() => {
            setDescribing(null);
            editor.commands.focus();
          }}
        />
      ) : null}
      <EditorContent editor={editor} />
      <input type="hidden" name={name} value={html} />
    </div>
  );
}

type DescribedImage = {
  url: string;
  width?: number;
  height?: number;
  alt: string;
  decorative: boolean;
  /** A new image, inserted by Done; otherwise the selected image's text is changed. */
  inserting: boolean;
};

/**
 * Asks for an image's alt text, or that it is decorative, before it goes into the text. Its fields
 * have no names (they are not the page form's) and Enter applies them instead of sending the page's form.
 */
function ImageTextPanel({
  id,
  image,
  onDone,
  onCancel,
}: {
  id: string;
  image: DescribedImage;
  onDone: (text: { alt: string; decorative: boolean }) => void;
  onCancel: () => void;
}) {
  const [alt, setAlt] = useState(image.alt);
  const [decorative, setDecorative] = useState(image.inserting ? false : image.decorative);
  const [error, setError] = useState<string | null>(null);
  const altInput = useRef<HTMLInputElement>(null);
  useEffect(() => altInput.current?.focus(), []);
  const done = () => {
    const text = describedImage(alt.replace(/\s+/g, " ").trim(), decorative);
    if (!text) {
      setError(ALT_REQUIRED);
      altInput.current?.focus();
      return;
    }
    onDone(text);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Enter") {
      event.preventDefault();
      done();
    } else if (event.key === "Escape") {
      event.preventDefault();
      onCancel();
    }
  };
  return (
    <fieldset
      aria-labelledby={`${id}-legend`}
      className="flex flex-wrap items-start gap-4 border-b border-slate-200 bg-slate-50 px-4 py-3"
      onKeyDown={onKeyDown}
    >
      <img src={image.url} alt="" width={96} height={64} className="h-16 w-24 rounded object-cover" />
      <div className="min-w-0 flex-1 space-y-2">
        <p id={`${id}-legend`} className="text-sm font-semibold text-navy-900">
          {image.inserting ? "Describe the image to insert" : "The image's alt text"}
        </p>
        <div>
          <label htmlFor={`${id}-alt`} className="field-label">
            Alt text
          </label>
          <input
            ref={altInput}
            id={`${id}-alt`}
            value={decorative ? "" : alt}
            onChange={(event) => {
              setAlt(event.currentTarget.value);
              setError(null);
            }}
            disabled={decorative}
            maxLength={IMAGE_ALT_MAX}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-alt-error` : undefined}
            className="field-input disabled:bg-slate-100"
          />
          {error ? (
            <p id={`${id}-alt-error`} className="mt-1.5 text-sm text-red-700">
              {error}
            </p>
          ) : null}
        </div>
        <div className="flex items-center gap-2 text-sm">
          <input
            id={`${id}-decorative`}
            type="checkbox"
            checked={decorative}
            onChange={(event) => {
              setDecorative(event.currentTarget.checked);
              setError(null);
            }}
            className="h-4 w-4"
          />
          <label htmlFor={`${id}-decorative`} className="text-slate-800">
            Decorative: it adds nothing to the text (no alt text)
          </label>
        </div>
        <div className="flex gap-2">
          <button type="button" className="btn-primary py-1.5" onClick={done}>
            {image.inserting ? "Insert image" : "Save alt text"}
          </button>
          <button type="button" className="btn-outline py-1.5" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </div>
    </fieldset>
  );
}

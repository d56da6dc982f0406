import { EditorContent, useEditor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { Bold, Heading2, Heading3, Italic, Link2, List, ListOrdered, Quote, Redo2, Undo2, Unlink } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";

/**
 * The admin's rich-text editor (TipTap). The form field is a hidden input
 * kept in sync with the editor; without JavaScript a plain HTML textarea
 * stands in. The server sanitizes whatever arrives.
 */
export function RichTextEditor({
  name,
  label,
  initialHtml,
  error,
}: {
  name: string;
  label: string;
  initialHtml: string;
  error?: string;
}) {
  const [html, setHtml] = useState(initialHtml);
  const [ready, setReady] = useState(false);
  const labelId = `${name}-label`;
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
    ],
    content: initialHtml,
    immediatelyRender: false,
    editorProps: {
      attributes: {
        class: "rich-text min-h-80 px-4 py-3 focus:outline-none",
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

  const icon = "h-4 w-4";
  return (
    <div>
      <span id={labelId} className="field-label">
        {label}
      </span>
      {ready && editor ? (
        <div className={`rounded-md border bg-white ${error ? "border-red-600" : "border-slate-300"}`}>
          <div
            role="toolbar"
            aria-label="Formatting"
            className="flex flex-wrap gap-0.5 border-b border-slate-200 p-1.5"
          >
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
            {button("Remove link", <Unlink className={icon} />, () => editor.chain().focus().unsetLink().run())}
            {button("Undo", <Undo2 className={icon} />, () => editor.chain().focus().undo().run())}
            {button("Redo", <Redo2 className={icon} />, () => editor.chain().focus().redo().run())}
          </div>
          <EditorContent editor={editor} />
          <input type="hidden" name={name} value={html} />
        </div>
      ) : (
        <textarea
          name={name}
          aria-labelledby={labelId}
          defaultValue={initialHtml}
          rows={16}
          className="field-input font-mono text-sm"
          aria-invalid={error ? true : undefined}
        />
      )}
      {error ? (
        <p id={`${name}-error`} className="mt-1.5 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

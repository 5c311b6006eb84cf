"use client";
// Uppy's Dashboard over tus, for one agent. Loaded with next/dynamic (no SSR) only when the
// uploads page mounts it, so Uppy, tus-js-client and their CSS stay out of every other page and
// out of /uploads until an agent is chosen.
//
// Resumable: tus keeps each unfinished upload's URL in localStorage under a fingerprint of the file
// (name, type, size, last modified) and the endpoint (so per agent); picking the same file again
// after a reload continues where the server's offset stands. A dropped connection is retried on
// its own (retryDelays), and while the browser reports itself offline Uppy waits for it to return.
import Uppy, { type Meta } from "@uppy/core";
import Dashboard from "@uppy/dashboard";
import Tus, { type TusBody } from "@uppy/tus";
import { useEffect, useRef } from "react";
import "@uppy/core/css/style.min.css";
import "@uppy/dashboard/css/style.min.css";
import "./uploader.css";

export interface UploadedFile {
  file_id: string;
  filename: string;
  size_bytes: number;
}

const CHUNK_SIZE = 5 * 1024 * 1024;
/** Retries after a failed request (network error, 5xx, 409/423): about two minutes in all. */
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 15_000, 20_000, 30_000, 30_000];
const FILE_ID_HEADER = "Upload-File-Id";

/** The fi_ id of a finished upload: the last response's header, else GET on the upload URL. */
async function fileIdOf(xhr: XMLHttpRequest | undefined, uploadURL: string | undefined): Promise<string | null> {
  const header = xhr?.getResponseHeader(FILE_ID_HEADER);
  if (header) return header;
  if (!uploadURL) return null;
  const res = await fetch(uploadURL, { credentials: "same-origin", cache: "no-store" });
  if (!res.ok) return null;
  return ((await res.json()) as { file_id?: string }).file_id ?? null;
}

/** Uppy's "time left" text of a zero estimate (prettyETA(0) is "0s"). */
const ZERO_ETA = /^\s*0s left\s*$/;

/** Tall enough for a few files with their progress bars, short enough for a phone's screen. */
const HEIGHT = 400;

/** `onUploaded` gets each finished file (null if its id could not be read: the list still refreshes). */
export function Uploader({
  agentId,
  onUploaded,
}: {
  agentId: string;
  onUploaded: (file: UploadedFile | null) => void;
}) {
  const target = useRef<HTMLDivElement>(null);
  const callback = useRef(onUploaded);
  useEffect(() => {
    callback.current = onUploaded;
  });

  useEffect(() => {
    const el = target.current;
    if (!el) return;
    // A fixed id: Uppy's file ids (part of tus's fingerprint) must survive a reload.
    const uppy = new Uppy<Meta, TusBody>({ id: "uploads", autoProceed: false, allowMultipleUploadBatches: true })
      .use(Dashboard, {
        inline: true,
        target: el,
        width: "100%",
        height: HEIGHT,
        proudlyDisplayPoweredByUppy: false,
        disableThumbnailGenerator: true,
        showRemoveButtonAfterComplete: false,
        fileManagerSelectionType: "files",
        // One file shows as a compact item like several do, not full-screen (small on a phone).
        singleFileFullScreen: false,
        note: "Large files are sent in 5 MB pieces. After a dropped connection or a reload, pick the same file again: it continues where it stopped.",
      })
      .use(Tus, {
        endpoint: `/api/agents/${encodeURIComponent(agentId)}/upload/tus`,
        chunkSize: CHUNK_SIZE,
        retryDelays: RETRY_DELAYS,
        removeFingerprintOnSuccess: true,
        limit: 2,
        allowedMetaFields: ["name", "type"],
      });
    // Uppy renders a lone file as role=listitem inside a plain <div> (with two or more files the
    // wrapper is role=list): give that wrapper its list role so assistive technology (and axe's
    // aria-required-parent) sees a list. Preact leaves attributes it did not set alone.
    const listRole = new MutationObserver(() => {
      for (const files of el.querySelectorAll(".uppy-Dashboard-files:not([role])")) files.setAttribute("role", "list");
    });
    listRole.observe(el, { childList: true, subtree: true });
    // Uppy's status bar estimates the time left from the bytes counted since the upload started; a
    // resumed upload counts the bytes the server already held as sent that instant, so its estimate
    // reads "0s left" while most of the file is still to go. A zero estimate with bytes still to send
    // is never true: it is left out (as Uppy does while it has no estimate), until a real one comes.
    const noZeroEta = new MutationObserver(() => {
      for (const info of el.querySelectorAll(".uppy-StatusBar-additionalInfo")) {
        for (const node of info.childNodes) {
          if (node.nodeType === Node.TEXT_NODE && ZERO_ETA.test(node.textContent ?? "")) node.textContent = "";
        }
      }
    });
    noZeroEta.observe(el, { childList: true, subtree: true, characterData: true });
    let alive = true;
    uppy.on("upload-success", (file, response) => {
      if (!file) return;
      const xhr = (response.body as TusBody | undefined)?.xhr;
      void fileIdOf(xhr, response.uploadURL)
        .catch(() => null)
        .then((fileId) => {
          if (!alive) return;
          if (!fileId) {
            uppy.info(
              `${file.name ?? "The file"} arrived, but its file id could not be read: see the list below.`,
              "error",
            );
            callback.current(null);
            return;
          }
          callback.current({ file_id: fileId, filename: file.name ?? "file", size_bytes: file.size ?? 0 });
        });
    });
    return () => {
      alive = false;
      listRole.disconnect();
      noZeroEta.disconnect();
      uppy.destroy();
    };
  }, [agentId]);

  return <div ref={target} className="uploads-uppy" data-testid="uppy-dashboard" />;
}

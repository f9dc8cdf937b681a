import { type RefObject, useEffect, useRef, useState } from "react";

/**
 * The width an element is shown at, followed as it resizes (at least 240 px), so that a chart is drawn at
 * that width and its labels keep their size on a phone. `initial` holds until the first measurement.
 */
export function useMeasuredWidth<T extends HTMLElement>(initial = 720): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.max(240, Math.round(entry.contentRect.width))));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

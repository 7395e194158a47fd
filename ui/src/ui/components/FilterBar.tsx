import { Search } from "lucide";
import type { ComponentChildren, Ref, TargetedEvent } from "preact";
import { Icon } from "./Icon";

/** A row of filters: a search box that takes the room left, then selects at their natural width. */
export function FilterBar({ label, children, id }: { label: string; children: ComponentChildren; id?: string }) {
  return (
    <div class="filter-bar" role="group" aria-label={label} id={id}>
      {children}
    </div>
  );
}

type SearchProps = {
  id: string;
  "aria-label": string;
  value: string;
  placeholder?: string;
  onInput: (e: TargetedEvent<HTMLInputElement>) => void;
  ref?: Ref<HTMLInputElement>;
};

/** A search input with its magnifier; needs an aria-label (its placeholder is only a hint). */
export function SearchField(props: SearchProps) {
  return (
    <div class="search-field">
      <Icon icon={Search} size={14} />
      <input type="search" {...props} />
    </div>
  );
}

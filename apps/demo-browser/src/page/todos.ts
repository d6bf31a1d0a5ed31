// The page's to-do list: kept in memory, rendered by the page, read and changed by the page tools.

export interface Todo {
  id: number;
  text: string;
  done: boolean;
}

export const MAX_TODO_TEXT = 200;

export class TodoList {
  private items: Todo[] = [];
  private nextId = 1;
  private readonly listeners = new Set<() => void>();

  constructor(texts: Array<string | { text: string; done?: boolean }> = []) {
    for (const entry of texts) {
      const todo = this.add(typeof entry === "string" ? entry : entry.text);
      if (typeof entry !== "string" && entry.done) this.complete(todo.id);
    }
  }

  /** Copies, in the order they were added. */
  list(): Todo[] {
    return this.items.map((todo) => ({ ...todo }));
  }

  add(text: string): Todo {
    const clean = text.trim().replace(/\s+/g, " ");
    if (!clean) throw new Error("A to-do needs some text.");
    if (clean.length > MAX_TODO_TEXT) {
      throw new Error(
        `A to-do has at most ${MAX_TODO_TEXT} characters; this one has ${clean.length}.`,
      );
    }
    const todo = { id: this.nextId++, text: clean, done: false };
    this.items.push(todo);
    this.changed();
    return { ...todo };
  }

  complete(id: number): Todo {
    const todo = this.find(id);
    todo.done = true;
    this.changed();
    return { ...todo };
  }

  remove(id: number): Todo {
    const todo = this.find(id);
    this.items = this.items.filter((item) => item !== todo);
    this.changed();
    return { ...todo };
  }

  /** Removes every to-do; returns how many there were. */
  clear(): number {
    const count = this.items.length;
    this.items = [];
    this.changed();
    return count;
  }

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private find(id: number): Todo {
    const todo = this.items.find((item) => item.id === id);
    if (!todo) {
      const ids = this.items.map((item) => item.id).join(", ") || "none";
      throw new Error(`No to-do has id ${id} (ids: ${ids}). Call listTodos first.`);
    }
    return todo;
  }

  private changed() {
    for (const listener of this.listeners) listener();
  }
}

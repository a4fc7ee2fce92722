// jsdom has no layout: give it the ResizeObserver that bind:clientHeight needs (it never fires).
if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  } as unknown as typeof ResizeObserver;
}

// jsdom has <dialog> but none of its methods: open and close it as a browser does (without
// the top layer or inertness, which jsdom cannot show).
if (typeof HTMLDialogElement !== 'undefined' && !HTMLDialogElement.prototype.showModal) {
  Object.assign(HTMLDialogElement.prototype, {
    show(this: HTMLDialogElement): void {
      this.setAttribute('open', '');
    },
    showModal(this: HTMLDialogElement): void {
      this.setAttribute('open', '');
    },
    close(this: HTMLDialogElement, value?: string): void {
      if (!this.hasAttribute('open')) return;
      if (value !== undefined) this.returnValue = value;
      this.removeAttribute('open');
      this.dispatchEvent(new Event('close'));
    },
  });
}

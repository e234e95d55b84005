// Modules vite.config.ts makes at build time.
declare module 'virtual:icons.css';

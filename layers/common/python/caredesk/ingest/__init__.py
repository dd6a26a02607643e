"""Document ingestion: conversion of uploaded files to Markdown-like text, and chunking."""

{
  "targets": [
    {
      "target_name": "heap_guard",
      "sources": ["heap_guard.cc"]
    }
  ]
}

"""The app's routes, one router per resource: the page, the AI service, the tables."""

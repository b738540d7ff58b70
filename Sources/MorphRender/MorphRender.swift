// Render backends arrive with the render issue.
